package io.github.workqueue.core.metrics;

/**
 * A value that is set as a whole. Implementations must be thread-safe.
 */
@FunctionalInterface
public interface SettableGaugeMetric {

	/**
	 * Sets the value.
	 * @param value the new value
	 */
	void set(double value);

}
