package io.github.workqueue.core.ratelimit;

import java.time.Duration;
import java.util.List;

import io.github.workqueue.core.Clock;

/**
 * Ready-made limiters.
 */
public final class RateLimiters {

	private RateLimiters() {
	}

	/**
	 * Returns client-go's {@code DefaultControllerRateLimiter}: the longest of a per-item
	 * exponential backoff from 5ms to 1000s and an overall bucket of 10 qps with a burst
	 * of 100.
	 * @param <T> the item type
	 * @param clock the time source of the bucket
	 * @return a new limiter
	 */
	public static <T> RateLimiter<T> controllerDefault(Clock clock) {
		return new MaxOfRateLimiter<T>(
				List.of(new ExponentialFailureRateLimiter<T>(Duration.ofMillis(5), Duration.ofSeconds(1000)),
						new BucketRateLimiter<T>(10, 100, clock)));
	}

}
