package io.github.workqueue.core.metrics;

/**
 * A distribution of observed values. Implementations must be thread-safe.
 */
@FunctionalInterface
public interface HistogramMetric {

	/**
	 * Records one observation.
	 * @param value the observed value, in seconds for the queue's durations
	 */
	void observe(double value);

}
