package io.github.workqueue.core.ratelimit;

import java.time.Duration;
import java.util.Objects;

/**
 * Waits {@code fastDelay} for an item's first {@code maxFastAttempts} retries and
 * {@code slowDelay} after that: client-go's {@code ItemFastSlowRateLimiter}.
 *
 * <p>
 * <b>Concurrency.</b> Thread-safe.
 *
 * @param <T> the item type
 */
public final class FastSlowRateLimiter<T> implements RateLimiter<T> {

	private final FailureCounts<T> failures = new FailureCounts<>();

	private final Duration fastDelay;

	private final Duration slowDelay;

	private final int maxFastAttempts;

	/**
	 * Creates the limiter.
	 * @param fastDelay the wait of the first retries, not negative
	 * @param slowDelay the wait of the later retries, not negative
	 * @param maxFastAttempts how many retries are fast, not negative
	 */
	public FastSlowRateLimiter(Duration fastDelay, Duration slowDelay, int maxFastAttempts) {
		Objects.requireNonNull(fastDelay, "fastDelay");
		Objects.requireNonNull(slowDelay, "slowDelay");
		if (fastDelay.isNegative() || slowDelay.isNegative()) {
			throw new IllegalArgumentException(
					"fastDelay and slowDelay must not be negative, were " + fastDelay + " and " + slowDelay);
		}
		if (maxFastAttempts < 0) {
			throw new IllegalArgumentException("maxFastAttempts must not be negative, was " + maxFastAttempts);
		}
		this.fastDelay = fastDelay;
		this.slowDelay = slowDelay;
		this.maxFastAttempts = maxFastAttempts;
	}

	@Override
	public Duration when(T item) {
		return (this.failures.increment(item) <= this.maxFastAttempts) ? this.fastDelay : this.slowDelay;
	}

	@Override
	public void forget(T item) {
		this.failures.forget(item);
	}

	@Override
	public int numRequeues(T item) {
		return this.failures.get(item);
	}

	/**
	 * Returns the delay of the first attempts.
	 * @return the delay of the first attempts
	 */
	public Duration fastDelay() {
		return this.fastDelay;
	}

	/**
	 * Returns the delay once the fast attempts are used up.
	 * @return the delay once the fast attempts are used up
	 */
	public Duration slowDelay() {
		return this.slowDelay;
	}

	/**
	 * Returns how many attempts get the fast delay.
	 * @return how many attempts get the fast delay
	 */
	public int maxFastAttempts() {
		return this.maxFastAttempts;
	}

	@Override
	public String toString() {
		return "fast-slow(fast=" + this.fastDelay + ", slow=" + this.slowDelay + ", maxFastAttempts="
				+ this.maxFastAttempts + ")";
	}

}
