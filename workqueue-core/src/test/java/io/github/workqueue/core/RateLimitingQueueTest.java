package io.github.workqueue.core;

import java.time.Duration;
import java.util.List;

import org.junit.jupiter.api.Test;

import io.github.workqueue.core.metrics.RecordingMetricsProvider;
import io.github.workqueue.core.ratelimit.ExponentialFailureRateLimiter;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.entry;

class RateLimitingQueueTest {

	private final FakeClock clock = new FakeClock();

	private final RecordingMetricsProvider metrics = new RecordingMetricsProvider();

	private final RateLimitingQueue<String> queue = WorkQueue.builder()
		.name("limited")
		.clock(this.clock)
		.metricsProvider(this.metrics)
		.buildRateLimiting(new ExponentialFailureRateLimiter<String>(Duration.ofMillis(1), Duration.ofSeconds(1)));

	@Test
	void addAllWithOptionsShouldAddEachAsAddWithThemDoes() throws InterruptedException {
		this.queue.add("low");
		this.queue.addAll(List.of("high", "low"), AddOptions.priority(2));
		this.queue.addAll(List.of("later"), AddOptions.delay(Duration.ofSeconds(1)));
		assertThat(this.queue.lenByPriority()).as("low raised").containsExactly(entry(2, 2));
		assertThat(this.queue.waitingLen()).isEqualTo(1);
		assertThat(this.queue.get()).contains("low");
		assertThat(this.queue.get()).contains("high");
	}

	@Test
	void addRateLimitedShouldWaitAsTheLimiterSays() throws InterruptedException {
		this.queue.addRateLimited("one");
		assertThat(this.queue.waitingLen()).isEqualTo(1);
		this.queue.addRateLimited("one");
		assertThat(this.queue.waitingLen()).as("one waiting entry per item").isEqualTo(1);
		assertThat(this.queue.numRequeues("one")).isEqualTo(2);
		this.clock.step(Duration.ofNanos(999_999));
		assertThat(this.queue.len()).isZero();
		this.clock.step(Duration.ofNanos(1));
		assertThat(this.queue.len()).as("earliest ready time (1ms) kept").isEqualTo(1);
		assertThat(this.queue.get()).contains("one");
		this.queue.addRateLimited("one");
		this.clock.step(Duration.ofMillis(3));
		assertThat(this.queue.len()).as("third failure waits 4ms").isZero();
		this.clock.step(Duration.ofMillis(1));
		this.queue.done("one");
		assertThat(this.queue.len()).isEqualTo(1);
		assertThat(this.metrics.retries("limited")).isEqualTo(3);
	}

	@Test
	void forgetShouldResetTheLimiterButNotTheQueue() throws InterruptedException {
		this.queue.add("one");
		String item = this.queue.get().orElseThrow();
		this.queue.addRateLimited(item);
		this.queue.addRateLimited(item);
		this.queue.forget(item);
		assertThat(this.queue.numRequeues(item)).isZero();
		this.queue.add(item);
		assertThat(this.queue.len()).as("still processing: forget does not call done").isZero();
		this.queue.done(item);
		assertThat(this.queue.len()).isEqualTo(1);
	}

	@Test
	void defaultLimiterShouldBeTheControllerDefaultOnTheQueueClock() {
		RateLimitingQueue<String> defaulted = WorkQueue.builder().clock(this.clock).buildRateLimiting();
		defaulted.addRateLimited("x");
		this.clock.step(Duration.ofMillis(4));
		assertThat(defaulted.len()).isZero();
		this.clock.step(Duration.ofMillis(1));
		assertThat(defaulted.len()).isEqualTo(1);
	}

}
