package io.github.workqueue.core.metrics;

/**
 * A monotonically increasing count. Implementations must be thread-safe.
 */
@FunctionalInterface
public interface CounterMetric {

	/**
	 * Adds to the count.
	 * @param amount how much to add, not negative
	 */
	void add(long amount);

	/**
	 * Adds one to the count.
	 */
	default void inc() {
		add(1);
	}

}
