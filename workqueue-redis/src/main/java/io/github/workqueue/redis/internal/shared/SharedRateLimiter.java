package io.github.workqueue.redis.internal.shared;

import java.time.Duration;
import java.util.function.Function;

import io.github.workqueue.core.ratelimit.RateLimiter;

/**
 * A queue's configured rate limiter evaluated on Redis ({@link SharedFailures}), so that
 * its state is shared by all instances. Thread-safe: each call is one script.
 *
 * @param <T> the type of the items
 */
public final class SharedRateLimiter<T> implements RateLimiter<T> {

	private final SharedFailures failures;

	private final Function<T, String> encode;

	private final Object configured;

	public SharedRateLimiter(SharedFailures failures, Function<T, String> encode, Object configured) {
		this.failures = failures;
		this.encode = encode;
		this.configured = configured;
	}

	@Override
	public Duration when(T item) {
		return this.failures.when(this.encode.apply(item));
	}

	@Override
	public void forget(T item) {
		this.failures.forget(this.encode.apply(item));
	}

	@Override
	public int numRequeues(T item) {
		return this.failures.numRequeues(this.encode.apply(item));
	}

	@Override
	public String toString() {
		return this.configured + " shared on Redis";
	}

}
