package io.github.workqueue.core.metrics;

/**
 * A value that goes up and down by one. Implementations must be thread-safe.
 */
public interface GaugeMetric {

	/**
	 * Adds one.
	 */
	void inc();

	/**
	 * Subtracts one.
	 */
	void dec();

}
