package io.github.workqueue.core.ratelimit;

import java.util.concurrent.ConcurrentHashMap;

/**
 * Per-item failure counts for the per-item limiters; counts stop at
 * {@link Integer#MAX_VALUE} instead of wrapping.
 *
 * <p>
 * <b>Concurrency.</b> Thread-safe; each count changes atomically.
 *
 * @param <T> the item type
 */
final class FailureCounts<T> {

	private final ConcurrentHashMap<T, Integer> failures = new ConcurrentHashMap<>();

	/**
	 * Adds one failure.
	 * @param item the item
	 * @return the count including this failure
	 */
	int increment(T item) {
		return this.failures.merge(item, 1, FailureCounts::incrementSaturated);
	}

	private static Integer incrementSaturated(Integer count, Integer one) {
		return (count == Integer.MAX_VALUE) ? count : count + 1;
	}

	int get(T item) {
		return this.failures.getOrDefault(item, 0);
	}

	void forget(T item) {
		this.failures.remove(item);
	}

}
