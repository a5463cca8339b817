package io.github.workqueue.core.ratelimit;

import java.time.Duration;
import java.util.Objects;

import io.github.workqueue.core.internal.Nanos;

/**
 * Waits {@code min(baseDelay * 2^(n-1), maxDelay)} before the n-th retry of an item:
 * client-go's {@code ItemExponentialFailureRateLimiter}. The result never overflows or
 * wraps around, whatever the failure count.
 *
 * <p>
 * <b>Concurrency.</b> Thread-safe.
 *
 * @param <T> the item type
 */
public final class ExponentialFailureRateLimiter<T> implements RateLimiter<T> {

	private final FailureCounts<T> failures = new FailureCounts<>();

	private final Duration baseDelay;

	private final Duration maxDelay;

	/**
	 * Creates the limiter.
	 * @param baseDelay the first wait, not negative
	 * @param maxDelay the longest wait, at least {@code baseDelay}
	 */
	public ExponentialFailureRateLimiter(Duration baseDelay, Duration maxDelay) {
		Objects.requireNonNull(baseDelay, "baseDelay");
		Objects.requireNonNull(maxDelay, "maxDelay");
		if (baseDelay.isNegative()) {
			throw new IllegalArgumentException("baseDelay must not be negative, was " + baseDelay);
		}
		if (maxDelay.compareTo(baseDelay) < 0) {
			throw new IllegalArgumentException(
					"maxDelay (" + maxDelay + ") must not be less than baseDelay (" + baseDelay + ")");
		}
		this.baseDelay = baseDelay;
		this.maxDelay = maxDelay;
	}

	@Override
	public Duration when(T item) {
		int exponent = this.failures.increment(item) - 1;
		return delayFor(exponent);
	}

	private Duration delayFor(int exponent) {
		long base = Nanos.of(this.baseDelay);
		if (base == 0) {
			return Duration.ZERO;
		}
		// base * 2^exponent > max exactly when base > floor(max / 2^exponent); a shift of
		// 63 or more overflows any positive base, so from there on the cap applies.
		long max = Nanos.of(this.maxDelay);
		if (exponent >= Long.SIZE - 1 || base > (max >>> exponent)) {
			return this.maxDelay;
		}
		return Duration.ofNanos(base << exponent);
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
	 * Returns the delay of the first failure.
	 * @return the delay of the first failure
	 */
	public Duration baseDelay() {
		return this.baseDelay;
	}

	/**
	 * Returns the longest delay.
	 * @return the longest delay
	 */
	public Duration maxDelay() {
		return this.maxDelay;
	}

	@Override
	public String toString() {
		return "exponential(base=" + this.baseDelay + ", max=" + this.maxDelay + ")";
	}

}
