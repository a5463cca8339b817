package io.github.workqueue.core.ratelimit;

import java.time.Duration;
import java.util.Objects;

/**
 * Caps another limiter's wait: client-go's {@code WithMaxWaitRateLimiter}.
 *
 * <p>
 * <b>Concurrency.</b> Thread-safe if the wrapped limiter is.
 *
 * @param <T> the item type
 */
public final class WithMaxWaitRateLimiter<T> implements RateLimiter<T> {

	private final RateLimiter<? super T> limiter;

	private final Duration maxWait;

	/**
	 * Creates the limiter.
	 * @param limiter the limiter to cap
	 * @param maxWait the longest wait, not negative
	 */
	public WithMaxWaitRateLimiter(RateLimiter<? super T> limiter, Duration maxWait) {
		Objects.requireNonNull(limiter, "limiter");
		Objects.requireNonNull(maxWait, "maxWait");
		if (maxWait.isNegative()) {
			throw new IllegalArgumentException("maxWait must not be negative, was " + maxWait);
		}
		this.limiter = limiter;
		this.maxWait = maxWait;
	}

	@Override
	public Duration when(T item) {
		Duration wait = this.limiter.when(item);
		return (wait.compareTo(this.maxWait) > 0) ? this.maxWait : wait;
	}

	@Override
	public void forget(T item) {
		this.limiter.forget(item);
	}

	@Override
	public int numRequeues(T item) {
		return this.limiter.numRequeues(item);
	}

	/**
	 * Returns the limiter whose waits are capped.
	 * @return the limiter whose waits are capped
	 */
	public RateLimiter<? super T> limiter() {
		return this.limiter;
	}

	/**
	 * Returns the longest wait returned.
	 * @return the longest wait returned
	 */
	public Duration maxWait() {
		return this.maxWait;
	}

	@Override
	public String toString() {
		return "with-max-wait(" + this.limiter + ", max=" + this.maxWait + ")";
	}

}
