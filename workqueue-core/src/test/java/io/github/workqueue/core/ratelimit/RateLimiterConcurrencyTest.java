package io.github.workqueue.core.ratelimit;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Per-item limiters count failures from many threads at once: a count that is not updated
 * atomically loses failures, which this test would see.
 */
class RateLimiterConcurrencyTest {

	private static final int THREADS = 8;

	private static final int FAILURES_PER_THREAD = 20_000;

	@Test
	void exponentialShouldCountEveryConcurrentFailure() throws InterruptedException {
		assertCountsEveryFailure(new ExponentialFailureRateLimiter<>(Duration.ofMillis(1), Duration.ofSeconds(1)));
	}

	@Test
	void fastSlowShouldCountEveryConcurrentFailure() throws InterruptedException {
		assertCountsEveryFailure(new FastSlowRateLimiter<>(Duration.ofMillis(1), Duration.ofSeconds(1), 3));
	}

	private static void assertCountsEveryFailure(RateLimiter<String> limiter) throws InterruptedException {
		CountDownLatch start = new CountDownLatch(1);
		List<Thread> threads = new ArrayList<>();
		for (int t = 0; t < THREADS; t++) {
			Thread thread = new Thread(() -> {
				try {
					start.await();
				}
				catch (InterruptedException ex) {
					Thread.currentThread().interrupt();
					return;
				}
				for (int i = 0; i < FAILURES_PER_THREAD; i++) {
					limiter.when("shared");
				}
			});
			thread.start();
			threads.add(thread);
		}
		start.countDown();
		for (Thread thread : threads) {
			thread.join(30_000);
		}
		assertThat(limiter.numRequeues("shared")).isEqualTo(THREADS * FAILURES_PER_THREAD);
	}

}
