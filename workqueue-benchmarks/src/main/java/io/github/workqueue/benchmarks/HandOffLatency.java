package io.github.workqueue.benchmarks;

import java.util.Arrays;
import java.util.concurrent.atomic.AtomicLongArray;

/**
 * Hand-off latency of an enqueue-and-process run: for each item, from the call of its
 * {@code add} to the return of the {@code get} that took it. Items are told apart by the
 * number at the end of their name. Thread-safe: one producer writes an item's add time
 * before adding it, one worker its latency after taking it.
 */
final class HandOffLatency {

	private final AtomicLongArray addedAt;

	private final AtomicLongArray latency;

	HandOffLatency(int items) {
		this.addedAt = new AtomicLongArray(items);
		this.latency = new AtomicLongArray(items);
	}

	/** The producer is about to add the item of this number. */
	void adding(int number) {
		this.addedAt.set(number, System.nanoTime());
	}

	/** A worker's get returned this item. */
	void taken(String item) {
		int number = numberOf(item);
		this.latency.set(number, System.nanoTime() - this.addedAt.get(number));
	}

	/**
	 * The latency at each quantile, in milliseconds.
	 * @param quantiles between 0 and 1
	 */
	double[] millisAt(double... quantiles) {
		long[] sorted = new long[this.latency.length()];
		for (int i = 0; i < sorted.length; i++) {
			sorted[i] = this.latency.get(i);
		}
		Arrays.sort(sorted);
		double[] millis = new double[quantiles.length];
		for (int q = 0; q < quantiles.length; q++) {
			int index = (int) Math.min(sorted.length - 1, Math.ceil(quantiles[q] * sorted.length) - 1);
			millis[q] = sorted[Math.max(0, index)] / 1e6;
		}
		return millis;
	}

	private static int numberOf(String item) {
		int start = item.length();
		while (start > 0 && Character.isDigit(item.charAt(start - 1))) {
			start--;
		}
		return Integer.parseInt(item.substring(start));
	}

}
