package io.github.workqueue.core.lincheck;

import io.github.workqueue.core.WorkQueueBuilder;
import io.github.workqueue.core.metrics.RecordingMetricsProvider;

/**
 * {@link WorkQueueLincheckTest} with metrics on: the same protocol, with its timestamps
 * and histograms.
 */
public class WorkQueueWithMetricsLincheckTest extends WorkQueueLincheckTest {

	@Override
	WorkQueueBuilder configure(WorkQueueBuilder builder) {
		return builder.name("lincheck").metricsProvider(new RecordingMetricsProvider());
	}

}
