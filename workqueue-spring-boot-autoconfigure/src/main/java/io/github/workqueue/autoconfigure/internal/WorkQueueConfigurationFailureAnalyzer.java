package io.github.workqueue.autoconfigure.internal;

import org.springframework.boot.diagnostics.AbstractFailureAnalyzer;
import org.springframework.boot.diagnostics.FailureAnalysis;
import io.github.workqueue.spring.InvalidWorkQueueConfigurationException;

/**
 * Explains an {@link InvalidWorkQueueConfigurationException} at startup: what is wrong,
 * where, and the fix.
 */
public class WorkQueueConfigurationFailureAnalyzer
		extends AbstractFailureAnalyzer<InvalidWorkQueueConfigurationException> {

	@Override
	protected FailureAnalysis analyze(Throwable rootFailure, InvalidWorkQueueConfigurationException cause) {
		return new FailureAnalysis(cause.getMessage(), cause.getAction(), cause);
	}

}
