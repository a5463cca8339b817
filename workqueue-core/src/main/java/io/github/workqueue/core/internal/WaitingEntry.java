package io.github.workqueue.core.internal;

/**
 * An item's pending delayed add in a {@link DefaultDelayingQueue}: when it becomes ready,
 * the order it was first added in (to break ties), and its place in the
 * {@link WaitingHeap}.
 *
 * <p>
 * <b>Concurrency.</b> Not thread-safe; guarded by the owning queue's lock.
 *
 * @param <T> the item type
 */
final class WaitingEntry<T> {

	final QueueEntry<T> entry;

	final long sequence;

	long readyAt;

	/** Index in the heap's array, or -1 when not in the heap. */
	int heapIndex = -1;

	WaitingEntry(QueueEntry<T> entry, long readyAt, long sequence) {
		this.entry = entry;
		this.readyAt = readyAt;
		this.sequence = sequence;
	}

	boolean isBefore(WaitingEntry<?> other) {
		return this.readyAt < other.readyAt || (this.readyAt == other.readyAt && this.sequence < other.sequence);
	}

}
