package io.github.workqueue.core.lincheck;

import java.time.Duration;

import io.github.workqueue.core.WorkQueueBuilder;
import io.github.workqueue.core.metrics.RecordingMetricsProvider;

/**
 * {@link RateLimitingQueueLincheckTest} with metrics on: the same protocol, with its
 * timestamps and histograms, and the unfinished-work timer firing at every step.
 */
public class RateLimitingQueueWithMetricsLincheckTest extends RateLimitingQueueLincheckTest {

	@Override
	WorkQueueBuilder configure(WorkQueueBuilder builder) {
		return builder.name("lincheck")
			.metricsProvider(new RecordingMetricsProvider())
			.unfinishedWorkUpdatePeriod(Duration.ofNanos(1));
	}

}
