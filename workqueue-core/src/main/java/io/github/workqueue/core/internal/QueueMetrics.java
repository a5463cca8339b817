package io.github.workqueue.core.internal;

import io.github.workqueue.core.metrics.DropReason;
import io.github.workqueue.core.metrics.MetricsProvider;

/**
 * What a queue reports as it changes state. The queue keeps the per-item timestamps
 * itself (in its {@link QueueEntry entries}) and hands over finished measurements, so
 * that the histograms are recorded after the queue's lock is released. Only the gauges
 * that must agree with the queue's state ({@link #depthChanged(int)},
 * {@link #waiting(int)}) are set under the lock.
 *
 * <p>
 * <b>Concurrency.</b> Implementations are thread-safe.
 */
interface QueueMetrics {

	/**
	 * Tells whether this records anything; when it does not, queues read no clock and
	 * keep no timestamps.
	 * @return false for the no-op metrics
	 */
	boolean enabled();

	/**
	 * Items of a priority became dirty (+) or were handed to a worker or raised to
	 * another priority (-); under the lock.
	 */
	void depthChanged(int priority, int delta);

	/** New (not deduplicated) adds; any thread. */
	void added(int count);

	/** A worker took an item that had been queued for this long; any thread. */
	void taken(long queuedNanos);

	/** A worker finished an item that it had processed for this long; any thread. */
	void finished(long workNanos);

	/** A delayed or rate-limited add; any thread. */
	void retried();

	/** The number of waiting items; under the lock. */
	void waiting(int count);

	/** Items were dropped; any thread. */
	void dropped(DropReason reason, int count);

	/** The summed and the longest age of the items being processed; any thread. */
	void unfinishedWork(long totalNanos, long longestNanos);

	/** How long the oldest ready item has waited since its add, 0 if none; any thread. */
	void oldestReady(long nanos);

	/**
	 * Returns the metrics for a queue: none for an unnamed queue or the no-op provider,
	 * as in client-go.
	 * @param name the queue's name
	 * @param provider where the metrics go
	 * @param defaultPriority the queue's default priority, whose depth is reported from
	 * the start
	 * @return the metrics
	 */
	static QueueMetrics create(String name, MetricsProvider provider, int defaultPriority) {
		if (name.isEmpty() || provider == MetricsProvider.noop()) {
			return NoopQueueMetrics.INSTANCE;
		}
		return new DefaultQueueMetrics(name, provider, defaultPriority);
	}

}
