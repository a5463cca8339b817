package io.github.workqueue.core.internal;

import io.github.workqueue.core.Clock;
import io.github.workqueue.core.metrics.DropReason;
import io.github.workqueue.core.metrics.MetricsProvider;

/**
 * What a queue reports as it changes state. Calls marked "under the lock" are made while
 * the queue's lock is held, which is what keeps an implementation's per-item bookkeeping
 * consistent with the queue.
 *
 * @param <T> the item type
 */
interface QueueMetrics<T> {

	/** A new (not deduplicated) add; under the lock. */
	void added(T item);

	/** A worker took the item; under the lock. */
	void taken(T item);

	/** A worker finished the item; under the lock. */
	void finished(T item);

	/** A delayed or rate-limited add; any thread. */
	void retried();

	/** The number of waiting items changed; under the lock. */
	void waiting(int count);

	/** Items were dropped; any thread. */
	void dropped(DropReason reason, int count);

	/** Recomputes the unfinished work gauges; under the lock. */
	void updateUnfinishedWork();

	/**
	 * Tells whether this records anything, so that queues can skip the periodic update.
	 * @return false for the no-op metrics
	 */
	boolean enabled();

	/**
	 * Returns the metrics for a queue: none for an unnamed queue or the no-op provider,
	 * as in client-go.
	 */
	@SuppressWarnings("unchecked")
	static <T> QueueMetrics<T> create(String name, Clock clock, MetricsProvider provider) {
		if (name.isEmpty() || provider == MetricsProvider.noop()) {
			return (QueueMetrics<T>) NoopQueueMetrics.INSTANCE;
		}
		return new DefaultQueueMetrics<>(name, clock, provider);
	}

}
