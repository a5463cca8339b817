package io.github.workqueue.autoconfigure.metrics;

/**
 * A double that one thread sets and a gauge reads.
 *
 * <p>
 * <b>Concurrency.</b> Thread-safe: the value is volatile, and every write sets it whole.
 */
final class DoubleValue {

	private volatile double value;

	double get() {
		return this.value;
	}

	void set(double value) {
		this.value = value;
	}

}
