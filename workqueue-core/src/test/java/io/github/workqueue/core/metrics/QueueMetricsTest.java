package io.github.workqueue.core.metrics;

import java.time.Duration;

import org.junit.jupiter.api.Test;

import io.github.workqueue.core.AddOptions;
import io.github.workqueue.core.FakeClock;
import io.github.workqueue.core.RateLimitingQueue;
import io.github.workqueue.core.WorkQueue;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

class QueueMetricsTest {

	private final FakeClock clock = new FakeClock();

	private final RecordingMetricsProvider metrics = new RecordingMetricsProvider();

	private final RateLimitingQueue<String> queue = WorkQueue.builder()
		.name("test")
		.clock(this.clock)
		.metricsProvider(this.metrics)
		.buildRateLimiting();

	@Test
	void depthShouldBeReportedPerPriorityAndFollowARaise() throws InterruptedException {
		assertThat(this.metrics.hasGauge("test.depth.0")).as("the default priority's depth from the start").isTrue();
		this.queue.add("a");
		this.queue.add("b", AddOptions.priority(5));
		assertThat(this.metrics.depth("test", 0)).isEqualTo(1);
		assertThat(this.metrics.depth("test", 5)).isEqualTo(1);
		this.queue.add("a", AddOptions.priority(5));
		assertThat(this.metrics.depth("test", 0)).isZero();
		assertThat(this.metrics.depth("test", 5)).isEqualTo(2);
		this.queue.get();
		this.queue.get();
		assertThat(this.metrics.depth("test", 5)).isZero();
		assertThat(this.metrics.depth("test")).isZero();
	}

	@Test
	void metricsShouldFollowAddGetDoneAsInClientGo() throws InterruptedException {
		this.queue.add("foo");
		assertThat(this.metrics.adds("test")).isEqualTo(1);
		assertThat(this.metrics.depth("test")).isEqualTo(1);
		this.queue.add("foo");
		assertThat(this.metrics.adds("test")).as("deduplicated add not counted").isEqualTo(1);

		this.clock.step(Duration.ofMillis(50));
		String item = this.queue.get().orElseThrow();
		assertThat(this.metrics.depth("test")).isZero();
		assertThat(this.metrics.latencies("test")).containsExactly(0.05);

		this.queue.add("bar");
		this.queue.add("foo");
		assertThat(this.metrics.adds("test")).isEqualTo(3);
		assertThat(this.metrics.depth("test")).as("dirty items, including foo waiting for done").isEqualTo(2);

		this.clock.step(Duration.ofMillis(25));
		this.queue.done(item);
		assertThat(this.metrics.workDurations("test")).containsExactly(0.025);

		String bar = this.queue.get().orElseThrow();
		assertThat(bar).isEqualTo("bar");
		assertThat(this.metrics.latencies("test")).containsExactly(0.05, 0.025);
		String foo = this.queue.get().orElseThrow();
		assertThat(foo).isEqualTo("foo");
		assertThat(this.metrics.depth("test")).isZero();

		// Both started at 75ms; the gauges are recomputed every 500ms of the clock.
		this.clock.step(Duration.ofMillis(424));
		assertThat(this.metrics.unfinishedWorkSeconds("test")).isZero();
		this.clock.step(Duration.ofMillis(1));
		assertThat(this.metrics.unfinishedWorkSeconds("test")).isCloseTo(0.85, within(1e-9));
		assertThat(this.metrics.longestRunningProcessorSeconds("test")).isCloseTo(0.425, within(1e-9));
		this.queue.done(bar);
		this.clock.step(Duration.ofMillis(500));
		assertThat(this.metrics.unfinishedWorkSeconds("test")).isCloseTo(0.925, within(1e-9));
		assertThat(this.metrics.longestRunningProcessorSeconds("test")).isCloseTo(0.925, within(1e-9));
		this.queue.done(foo);
		this.clock.step(Duration.ofMillis(500));
		assertThat(this.metrics.unfinishedWorkSeconds("test")).isZero();
		assertThat(this.metrics.workDurations("test")).containsExactly(0.025, 0.425, 0.925);
	}

	@Test
	void oldestReadyItemShouldBeTheLongestWaitingOneNotTaken() throws InterruptedException {
		this.queue.add("a");
		this.clock.step(Duration.ofMillis(100));
		this.queue.add("b");
		this.clock.step(Duration.ofMillis(400));
		assertThat(this.metrics.oldestReadyItemSeconds("test")).as("a, added 500 ms ago").isCloseTo(0.5, within(1e-9));

		String a = this.queue.get().orElseThrow();
		this.queue.add(a);
		this.clock.step(Duration.ofMillis(500));
		assertThat(this.metrics.oldestReadyItemSeconds("test"))
			.as("b; a is processing, so its re-add is not ready until done")
			.isCloseTo(0.9, within(1e-9));

		this.queue.get().orElseThrow();
		this.clock.step(Duration.ofMillis(500));
		assertThat(this.metrics.oldestReadyItemSeconds("test")).as("nothing ready").isZero();

		this.queue.done(a);
		this.clock.step(Duration.ofMillis(500));
		assertThat(this.metrics.oldestReadyItemSeconds("test")).as("a, ready since done, waiting since its re-add")
			.isCloseTo(1.5, within(1e-9));
	}

	@Test
	void retriesAndWaitingShouldBeCounted() {
		this.queue.addRateLimited("a");
		this.queue.addAfter("b", Duration.ofSeconds(1));
		this.queue.addAfter("c", Duration.ZERO);
		assertThat(this.metrics.retries("test")).isEqualTo(3);
		assertThat(this.metrics.waiting("test")).isEqualTo(2);
		this.clock.step(Duration.ofSeconds(1));
		assertThat(this.metrics.waiting("test")).isZero();
		assertThat(this.metrics.adds("test")).isEqualTo(3);
	}

	@Test
	void unnamedQueueShouldRecordNothingAndSetNoTimer() {
		WorkQueue<String> unnamed = WorkQueue.builder().clock(this.clock).metricsProvider(this.metrics).build();
		int timersBefore = this.clock.pendingTimers();
		unnamed.add("x");
		assertThat(this.metrics.adds("")).isZero();
		assertThat(this.clock.pendingTimers()).isEqualTo(timersBefore);
	}

	@Test
	void shutDownShouldStopTheUnfinishedWorkUpdates() {
		assertThat(this.clock.pendingTimers()).isEqualTo(1);
		this.queue.shutDown();
		assertThat(this.clock.pendingTimers()).isZero();
	}

}
