package io.github.workqueue.core.ratelimit;

import java.time.Duration;

/**
 * Decides how long an item waits before it is retried: client-go's
 * {@code TypedRateLimiter}.
 *
 * <p>
 * <b>Caller contract.</b> Per-item limiters remember every item passed to {@link #when}
 * until {@link #forget} is called for it.
 *
 * <p>
 * <b>Concurrency.</b> Implementations must be thread-safe: queues call them from any
 * thread, without holding a lock.
 *
 * @param <T> the item type
 */
public interface RateLimiter<T> {

	/**
	 * Records a failure of the item and returns how long it should wait.
	 * @param item the item
	 * @return the wait, zero or positive
	 */
	Duration when(T item);

	/**
	 * Forgets the item's failures, for example after it succeeded.
	 * @param item the item
	 */
	void forget(T item);

	/**
	 * Returns how many failures are remembered for the item.
	 * @param item the item
	 * @return the number of failures since the item was last forgotten
	 */
	int numRequeues(T item);

}
