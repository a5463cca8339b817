package io.github.workqueue.core.internal;

import org.jspecify.annotations.Nullable;

/**
 * An item's pending delayed add in a {@link DefaultDelayingQueue}: when it becomes ready
 * and the order it was first added in (to break ties). An add that moves the item's ready
 * time earlier makes a new entry with the same sequence; the old one, like one whose item
 * was added or removed, is then {@linkplain #supersede() superseded}: stale, left to the
 * {@link WaitingHeap} to drop, and no longer holding its item, so that a stale entry
 * keeps no processed item reachable.
 *
 * <p>
 * <b>Concurrency.</b> Not thread-safe; guarded by the owning queue's lock.
 *
 * @param <T> the item type
 */
final class WaitingEntry<T> {

	/** The item's entry while this is its waiting entry; null once superseded. */
	private @Nullable QueueEntry<T> entry;

	final long sequence;

	final long readyAt;

	WaitingEntry(QueueEntry<T> entry, long readyAt, long sequence) {
		this.entry = entry;
		this.readyAt = readyAt;
		this.sequence = sequence;
	}

	/** Whether this is still its item's waiting entry. */
	boolean isLive() {
		return this.entry != null;
	}

	/**
	 * The item's entry.
	 * @return the entry
	 * @throws IllegalStateException if this entry was superseded
	 */
	QueueEntry<T> entry() {
		QueueEntry<T> live = this.entry;
		if (live == null) {
			throw new IllegalStateException("superseded waiting entry");
		}
		return live;
	}

	/** Makes this entry stale: its item's waiting entry is another one, or none. */
	void supersede() {
		this.entry = null;
	}

	boolean isBefore(WaitingEntry<?> other) {
		return this.readyAt < other.readyAt || (this.readyAt == other.readyAt && this.sequence < other.sequence);
	}

}
