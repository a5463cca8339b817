package io.github.workqueue.core.internal;

import java.util.Arrays;
import java.util.function.Consumer;

import org.jspecify.annotations.Nullable;

/**
 * A binary min-heap of {@link WaitingEntry} ordered by ready time, then sequence, with
 * the ready times kept in their own array: an insert compares and moves array slots only,
 * and touches no entry unless two ready times are equal. Entries are removed lazily: one
 * that its owner {@linkplain WaitingEntry#supersede() supersedes} (its item was added,
 * removed, or moved earlier with a new entry) stays in the arrays, stale, until it
 * reaches the top or the arrays are compacted. So a removal costs O(1), and the owner
 * tells the heap of it with {@link #superseded()}.
 *
 * <p>
 * <b>Invariants.</b> The slots {@code [0, length)} form a heap by (ready time, sequence);
 * {@link #live} counts the live entries among them, and the stale ones are never more
 * than {@code live + COMPACT_SLACK} (a compaction restores that), so memory stays
 * proportional to the waiting items.
 *
 * <p>
 * <b>Concurrency.</b> Not thread-safe; guarded by the owning queue's lock.
 *
 * @param <T> the item type
 */
final class WaitingHeap<T> {

	private static final int INITIAL_CAPACITY = 16;

	/** Stale entries tolerated beyond the live ones before a compaction. */
	private static final int COMPACT_SLACK = 64;

	private long[] readyAts = new long[INITIAL_CAPACITY];

	private WaitingEntry<T>[] entries = newArray(INITIAL_CAPACITY);

	/** Slots in use, live or stale. */
	private int length;

	private int live;

	/** The number of live entries: the items waiting. */
	int size() {
		return this.live;
	}

	/**
	 * The live entry first in order, after dropping the stale ones ahead of it.
	 * @return the entry, or null if none is live
	 */
	@Nullable WaitingEntry<T> peek() {
		while (this.length > 0) {
			WaitingEntry<T> first = this.entries[0];
			if (first.isLive()) {
				return first;
			}
			removeFirst();
		}
		return null;
	}

	/**
	 * Removes the first entry, which {@link #peek()} just returned.
	 */
	void poll() {
		removeFirst();
		this.live--;
	}

	/**
	 * Adds a live entry.
	 * @param entry the entry, now its item's waiting entry
	 */
	void add(WaitingEntry<T> entry) {
		if (this.length == this.entries.length) {
			int capacity = this.length * 2;
			this.entries = Arrays.copyOf(this.entries, capacity);
			this.readyAts = Arrays.copyOf(this.readyAts, capacity);
		}
		siftUp(this.length++, entry);
		this.live++;
	}

	/**
	 * Counts one live entry as stale: its item no longer points to it.
	 */
	void superseded() {
		this.live--;
		if (this.length - this.live > this.live + COMPACT_SLACK) {
			compact();
		}
	}

	/**
	 * Runs the action for each live entry, in no particular order.
	 * @param action what to run
	 */
	void forEachLive(Consumer<WaitingEntry<T>> action) {
		for (int i = 0; i < this.length; i++) {
			if (this.entries[i].isLive()) {
				action.accept(this.entries[i]);
			}
		}
	}

	void clear() {
		this.entries = newArray(INITIAL_CAPACITY);
		this.readyAts = new long[INITIAL_CAPACITY];
		this.length = 0;
		this.live = 0;
	}

	private void removeFirst() {
		int last = --this.length;
		WaitingEntry<T> moved = this.entries[last];
		this.entries[last] = null;
		if (last > 0) {
			siftDown(0, moved);
		}
	}

	/** Keeps the live entries only and restores the heap order (Floyd's heapify). */
	private void compact() {
		int kept = 0;
		for (int i = 0; i < this.length; i++) {
			WaitingEntry<T> entry = this.entries[i];
			if (entry.isLive()) {
				this.entries[kept] = entry;
				this.readyAts[kept] = entry.readyAt;
				kept++;
			}
		}
		Arrays.fill(this.entries, kept, this.length, null);
		this.length = kept;
		for (int i = (kept >>> 1) - 1; i >= 0; i--) {
			siftDown(i, this.entries[i]);
		}
	}

	private void siftUp(int index, WaitingEntry<T> entry) {
		long readyAt = entry.readyAt;
		while (index > 0) {
			int parent = (index - 1) >>> 1;
			long parentReadyAt = this.readyAts[parent];
			if (readyAt > parentReadyAt
					|| (readyAt == parentReadyAt && entry.sequence > this.entries[parent].sequence)) {
				break;
			}
			this.readyAts[index] = parentReadyAt;
			this.entries[index] = this.entries[parent];
			index = parent;
		}
		this.readyAts[index] = readyAt;
		this.entries[index] = entry;
	}

	private void siftDown(int index, WaitingEntry<T> entry) {
		long readyAt = entry.readyAt;
		int half = this.length >>> 1;
		while (index < half) {
			int child = 2 * index + 1;
			int right = child + 1;
			if (right < this.length && isBefore(right, child)) {
				child = right;
			}
			long childReadyAt = this.readyAts[child];
			if (childReadyAt > readyAt || (childReadyAt == readyAt && this.entries[child].sequence > entry.sequence)) {
				break;
			}
			this.readyAts[index] = childReadyAt;
			this.entries[index] = this.entries[child];
			index = child;
		}
		this.readyAts[index] = readyAt;
		this.entries[index] = entry;
	}

	private boolean isBefore(int a, int b) {
		long readyAtA = this.readyAts[a];
		long readyAtB = this.readyAts[b];
		return readyAtA < readyAtB || (readyAtA == readyAtB && this.entries[a].sequence < this.entries[b].sequence);
	}

	@SuppressWarnings("unchecked")
	private static <T> WaitingEntry<T>[] newArray(int capacity) {
		return (WaitingEntry<T>[]) new WaitingEntry<?>[capacity];
	}

}
