package io.github.workqueue.core.internal;

import org.jspecify.annotations.Nullable;

/**
 * The items a queue with metrics on is processing, linked through their entries
 * ({@link TimedQueueEntry#previousProcessing}, {@link TimedQueueEntry#nextProcessing}),
 * so that taking and finishing an item cost one link and one unlink, and the
 * unfinished-work gauges can walk them. It also keeps the entries' timestamps as their
 * processing starts and ends.
 *
 * <p>
 * <b>Concurrency.</b> Not thread-safe: guarded by the owning queue's lock.
 *
 * @param <T> the item type
 */
final class ProcessingList<T> {

	private @Nullable TimedQueueEntry<T> head;

	/** The most recently linked entry; follow {@link TimedQueueEntry#nextProcessing}. */
	@Nullable TimedQueueEntry<T> head() {
		return this.head;
	}

	/**
	 * Links an entry whose processing starts.
	 * @param entry the entry, ready until now
	 * @param now the clock's time
	 * @return how long the item was queued
	 */
	long started(TimedQueueEntry<T> entry, long now) {
		long queuedNanos = now - entry.addedAt();
		entry.addedAt(TimedQueueEntry.NO_TIME);
		entry.startedAt = now;
		link(entry);
		return queuedNanos;
	}

	/**
	 * Unlinks an entry whose processing ends.
	 * @param entry the entry, processing until now
	 * @param now the clock's time
	 * @return how long it was processed
	 */
	long finished(TimedQueueEntry<T> entry, long now) {
		long workNanos = now - entry.startedAt;
		entry.startedAt = TimedQueueEntry.NO_TIME;
		unlink(entry);
		return workNanos;
	}

	private void link(TimedQueueEntry<T> entry) {
		TimedQueueEntry<T> first = this.head;
		entry.nextProcessing = first;
		if (first != null) {
			first.previousProcessing = entry;
		}
		this.head = entry;
	}

	private void unlink(TimedQueueEntry<T> entry) {
		TimedQueueEntry<T> previous = entry.previousProcessing;
		TimedQueueEntry<T> next = entry.nextProcessing;
		if (previous != null) {
			previous.nextProcessing = next;
		}
		else {
			this.head = next;
		}
		if (next != null) {
			next.previousProcessing = previous;
		}
		entry.previousProcessing = null;
		entry.nextProcessing = null;
	}

}
