package io.github.workqueue.core;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;

import org.junit.jupiter.api.Test;

import io.github.workqueue.core.metrics.RecordingMetricsProvider;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * client-go's fake clock semantics, which ported client-go tests rely on.
 */
class FakeClockTest {

	private final FakeClock clock = new FakeClock();

	@Test
	void timersShouldReadTheEndOfTheStep() {
		List<Long> seen = new ArrayList<>();
		this.clock.schedule(10, () -> seen.add(this.clock.nanoTime()));
		this.clock.schedule(20, () -> seen.add(this.clock.nanoTime()));
		this.clock.step(Duration.ofNanos(100));
		assertThat(seen).containsExactly(100L, 100L);
	}

	@Test
	void dueTimersShouldRunInDeadlineOrder() {
		List<String> order = new ArrayList<>();
		this.clock.schedule(30, () -> order.add("c"));
		this.clock.schedule(10, () -> order.add("a"));
		this.clock.schedule(10, () -> order.add("b"));
		this.clock.schedule(31, () -> order.add("late"));
		this.clock.step(Duration.ofNanos(30));
		assertThat(order).containsExactly("a", "b", "c");
		assertThat(this.clock.pendingTimers()).isOne();
	}

	@Test
	void periodicTimerShouldFireAtMostOncePerStep() {
		AtomicInteger runs = new AtomicInteger();
		Runnable[] periodic = new Runnable[1];
		periodic[0] = () -> {
			runs.incrementAndGet();
			this.clock.schedule(this.clock.nanoTime() + Duration.ofMillis(500).toNanos(), periodic[0]);
		};
		this.clock.schedule(Duration.ofMillis(500).toNanos(), periodic[0]);
		this.clock.step(Duration.ofDays(365));
		assertThat(runs).hasValue(1);
		this.clock.step(Duration.ofMillis(499));
		assertThat(runs).hasValue(1);
		this.clock.step(Duration.ofMillis(1));
		assertThat(runs).hasValue(2);
	}

	@Test
	void timerAlreadyDueWhenScheduledShouldRunAtOnce() {
		this.clock.step(Duration.ofNanos(50));
		AtomicInteger runs = new AtomicInteger();
		this.clock.schedule(50, runs::incrementAndGet);
		this.clock.schedule(7, runs::incrementAndGet);
		assertThat(runs).hasValue(2);
		assertThat(this.clock.pendingTimers()).isZero();
	}

	@Test
	void cancelledTimerShouldNotRun() {
		AtomicInteger runs = new AtomicInteger();
		this.clock.schedule(10, runs::incrementAndGet).cancel();
		this.clock.step(Duration.ofNanos(10));
		assertThat(runs).hasValue(0);
		assertThat(this.clock.pendingTimers()).isZero();
	}

	@Test
	void steppingAMeteredQueueByAYearShouldUpdateTheUnfinishedWorkOnce() throws InterruptedException {
		RecordingMetricsProvider metrics = new RecordingMetricsProvider();
		WorkQueue<String> queue = WorkQueue.builder().name("year").clock(this.clock).metricsProvider(metrics).build();
		queue.add("a");
		queue.get();
		this.clock.step(Duration.ofDays(365));
		assertThat(metrics.unfinishedWorkSeconds("year")).isEqualTo(Duration.ofDays(365).toSeconds());
		assertThat(this.clock.pendingTimers()).as("the next update only").isOne();
	}

}
