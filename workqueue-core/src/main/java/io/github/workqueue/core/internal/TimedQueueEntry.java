package io.github.workqueue.core.internal;

import org.jspecify.annotations.Nullable;

/**
 * The entry of a queue with metrics on: the item's timestamps and its place in the list
 * of items being processed. A queue without metrics uses the smaller {@link QueueEntry}.
 *
 * <p>
 * <b>Concurrency.</b> Guarded by the owning queue's lock.
 *
 * @param <T> the item type
 */
final class TimedQueueEntry<T> extends QueueEntry<T> {

	/** A timestamp that was not taken. */
	static final long NO_TIME = Long.MIN_VALUE;

	/** When the item was last added. */
	long addedAt = NO_TIME;

	/** When its processing started. */
	long startedAt = NO_TIME;

	/** Neighbours in the list of items being processed. */
	@Nullable TimedQueueEntry<T> previousProcessing;

	@Nullable TimedQueueEntry<T> nextProcessing;

	TimedQueueEntry(T item, int state, int priority) {
		super(item, state, priority);
	}

}
