package io.github.workqueue.core.ratelimit;

import java.time.Duration;
import java.util.List;
import java.util.Objects;

/**
 * Asks every limiter and waits the longest of their answers: client-go's
 * {@code MaxOfRateLimiter}. {@link #numRequeues} is the largest of theirs and
 * {@link #forget} forgets in all.
 *
 * <p>
 * <b>Concurrency.</b> Thread-safe if the limiters are.
 *
 * @param <T> the item type
 */
public final class MaxOfRateLimiter<T> implements RateLimiter<T> {

	private final List<RateLimiter<? super T>> limiters;

	/**
	 * Creates the limiter.
	 * @param limiters the limiters, at least one
	 */
	public MaxOfRateLimiter(List<? extends RateLimiter<? super T>> limiters) {
		Objects.requireNonNull(limiters, "limiters");
		if (limiters.isEmpty()) {
			throw new IllegalArgumentException("max-of needs at least one limiter");
		}
		this.limiters = List.copyOf(limiters);
	}

	@Override
	public Duration when(T item) {
		Duration longest = Duration.ZERO;
		for (RateLimiter<? super T> limiter : this.limiters) {
			Duration wait = limiter.when(item);
			if (wait.compareTo(longest) > 0) {
				longest = wait;
			}
		}
		return longest;
	}

	@Override
	public void forget(T item) {
		for (RateLimiter<? super T> limiter : this.limiters) {
			limiter.forget(item);
		}
	}

	@Override
	public int numRequeues(T item) {
		int most = 0;
		for (RateLimiter<? super T> limiter : this.limiters) {
			most = Math.max(most, limiter.numRequeues(item));
		}
		return most;
	}

	/**
	 * Returns the limiters asked, in order.
	 * @return the limiters
	 */
	public List<RateLimiter<? super T>> limiters() {
		return this.limiters;
	}

	@Override
	public String toString() {
		return "max-of" + this.limiters;
	}

}
