package io.github.workqueue.core.internal;

/**
 * An item's pending delayed add in a {@link DefaultDelayingQueue}: when it becomes ready
 * and the order it was first added in (to break ties). An add that moves the item's ready
 * time earlier makes a new entry with the same sequence; the old one is then stale and
 * left to the {@link WaitingHeap} to drop.
 *
 * <p>
 * <b>Concurrency.</b> Immutable; {@link #isLive()} reads its item's entry, which is
 * guarded by the owning queue's lock.
 *
 * @param <T> the item type
 */
final class WaitingEntry<T> {

	final QueueEntry<T> entry;

	final long sequence;

	final long readyAt;

	WaitingEntry(QueueEntry<T> entry, long readyAt, long sequence) {
		this.entry = entry;
		this.readyAt = readyAt;
		this.sequence = sequence;
	}

	/** Whether this is still its item's waiting entry; under the lock. */
	boolean isLive() {
		return this.entry.waiting == this;
	}

	boolean isBefore(WaitingEntry<?> other) {
		return this.readyAt < other.readyAt || (this.readyAt == other.readyAt && this.sequence < other.sequence);
	}

}
