package io.github.workqueue.core.internal;

import java.util.List;

import org.jspecify.annotations.Nullable;

/**
 * An item's place among the ready items of a queue that orders by priority and fairness
 * ({@link PriorityLevels}): its fairness keys, the sequence number of the moment it
 * became ready, and where it is queued. Made once per {@link QueueEntry} and kept while
 * the entry lives.
 *
 * <p>
 * <b>Concurrency.</b> Guarded by the owning queue's lock.
 *
 * @param <T> the item type
 */
final class ReadySlot<T> {

	final QueueEntry<T> entry;

	/** The item's fairness keys, most significant first; empty without fairness. */
	final List<String> keys;

	/** When the item became ready, in the order of its level: smaller leaves first. */
	long sequence;

	/** Its index in {@link #leaf}'s heap of late items, -1 when not in one. */
	int heapIndex = -1;

	/** The node it is queued at (whose own item it is), null when it is not queued. */
	@Nullable FairNode<T> leaf;

	/** Its neighbours in {@link #leaf}'s list of in-order items, null at the ends. */
	@Nullable ReadySlot<T> previous;

	@Nullable ReadySlot<T> next;

	ReadySlot(QueueEntry<T> entry, List<String> keys) {
		this.entry = entry;
		this.keys = keys;
	}

}
