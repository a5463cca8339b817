package io.github.workqueue.core;

import java.time.Duration;

import io.github.workqueue.core.ratelimit.RateLimiter;

/**
 * A {@link DelayingQueue} whose retries are spaced by a {@link RateLimiter}.
 *
 * <p>
 * <b>Caller contract.</b> Call {@link #forget(Object)} once an item was processed
 * successfully (or given up), otherwise per-item limiters remember its failures forever:
 * its next failure waits longer than it should and the memory is never released. Forget
 * does not replace {@link #done(Object)}: both are needed.
 *
 * <p>
 * <b>Concurrency.</b> Thread-safe, like {@link WorkQueue}; the limiter is called outside
 * the queue's lock and must be thread-safe itself.
 *
 * @param <T> the item type
 */
public interface RateLimitingQueue<T> extends DelayingQueue<T> {

	/**
	 * Adds the item after the delay its rate limiter gives: {@code addAfter(item,
	 * limiter.when(item))}, as one atomic operation.
	 * @param item the item, not null
	 * @return the delay the limiter gave (the limiter is asked even when the queue is
	 * shutting down and the add is dropped, as in client-go)
	 */
	Duration addRateLimited(T item);

	/**
	 * Clears the rate limiter's memory of the item. Does not call {@code done}.
	 * @param item the item
	 */
	void forget(T item);

	/**
	 * Returns how many times the item was requeued through the rate limiter since it was
	 * last forgotten.
	 * @param item the item
	 * @return the number of requeues
	 */
	int numRequeues(T item);

	/**
	 * Returns the rate limiter this queue uses.
	 * @return the rate limiter
	 */
	RateLimiter<? super T> rateLimiter();

}
