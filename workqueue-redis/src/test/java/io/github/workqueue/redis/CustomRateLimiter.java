package io.github.workqueue.redis;

import java.time.Duration;

import io.github.workqueue.core.ratelimit.RateLimiter;

/**
 * A rate limiter of the application's own class, which Redis cannot evaluate: for the
 * tests of what a Redis queue does with one. Shared with the starter's tests.
 */
public final class CustomRateLimiter implements RateLimiter<Object> {

	@Override
	public Duration when(Object item) {
		return Duration.ZERO;
	}

	@Override
	public void forget(Object item) {
	}

	@Override
	public int numRequeues(Object item) {
		return 0;
	}

}
