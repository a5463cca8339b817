package io.github.workqueue.core.lincheck;

import java.time.Duration;

import io.github.workqueue.core.WorkQueueBuilder;
import io.github.workqueue.core.metrics.RecordingMetricsProvider;

/**
 * {@link FairQueueLincheckTest} with metrics on: timed entries, the depth gauge of each
 * priority (moved by raises, under the lock) and the unfinished-work timer firing at
 * every step, racing the same operations.
 */
public class FairQueueWithMetricsLincheckTest extends FairQueueLincheckTest {

	@Override
	WorkQueueBuilder configure(WorkQueueBuilder builder) {
		return super.configure(builder).name("lincheck")
			.metricsProvider(new RecordingMetricsProvider())
			.unfinishedWorkUpdatePeriod(Duration.ofNanos(1));
	}

}
