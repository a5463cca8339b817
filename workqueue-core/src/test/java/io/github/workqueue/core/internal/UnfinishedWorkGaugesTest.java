package io.github.workqueue.core.internal;

import java.time.Duration;

import org.junit.jupiter.api.Test;

import io.github.workqueue.core.FakeClock;
import io.github.workqueue.core.WorkQueue;
import io.github.workqueue.core.metrics.RecordingMetricsProvider;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The moments the lock-free scan of the oldest-ready gauge can meet, made on purpose: an
 * entry already in the map and dirty whose add time is not written yet (an add between
 * publishing the entry and stamping it), and one whose state is still dirty while a take
 * has already cleared its time. The scan must skip both rather than report an age from
 * the unset time.
 */
class UnfinishedWorkGaugesTest {

	@Test
	void anEntryWithoutItsAddTimeYetShouldBeSkipped() {
		FakeClock clock = new FakeClock();
		RecordingMetricsProvider metrics = new RecordingMetricsProvider();
		DefaultWorkQueue<String> queue = (DefaultWorkQueue<String>) WorkQueue.builder()
			.name("gauges")
			.clock(clock)
			.metricsProvider(metrics)
			.<String>buildRateLimiting();
		queue.entries.insert(new TimedQueueEntry<>("stamped-later", QueueEntry.DIRTY, 0));
		clock.step(Duration.ofMillis(500));
		assertThat(metrics.oldestReadyItemSeconds("gauges")).isZero();

		queue.add("ready");
		clock.step(Duration.ofMillis(500));
		assertThat(metrics.oldestReadyItemSeconds("gauges")).as("only the stamped entry counts").isEqualTo(0.5);
		queue.shutDown();
	}

}
