package io.github.workqueue.core;

/**
 * Counts, with each item of a queue, the attempts to process it that failed since its
 * last success, in one place for every process that shares the queue. A queue shared by
 * several instances (the Redis queue) implements it, so that a worker container counts
 * {@code max-retries} queue-wide; for a queue of one process, the container counts in its
 * own memory.
 *
 * <p>
 * Thread-safe: each method takes effect atomically for every instance at once.
 *
 * @param <T> the item type
 */
public interface FailedAttempts<T> {

	/**
	 * Counts one more failed attempt of the item.
	 * @param item the item
	 * @return its failed attempts since its last success, this one included
	 */
	int recordFailedAttempt(T item);

	/**
	 * Returns the item's failed attempts since its last success.
	 * @param item the item
	 * @return the count, 0 when none
	 */
	int failedAttempts(T item);

	/**
	 * Forgets the item's failed attempts, after a success or when it is given up, and, if
	 * asked, the rate limiter's memory of it as {@code forget} does, in one step (one
	 * round trip on Redis).
	 * @param item the item
	 * @param forget whether to forget the rate limiter's memory of the item too
	 */
	void clearFailedAttempts(T item, boolean forget);

}
