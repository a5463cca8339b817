package io.github.workqueue.core.internal;

import java.util.Arrays;

import org.jspecify.annotations.Nullable;

/**
 * A binary min-heap of {@link WaitingEntry} ordered by ready time, then sequence. Each
 * entry knows its index, so an entry can be removed or moved earlier in O(log n).
 *
 * <p>
 * <b>Concurrency.</b> Not thread-safe; guarded by the owning queue's lock.
 *
 * @param <T> the item type
 */
final class WaitingHeap<T> {

	private static final int INITIAL_CAPACITY = 16;

	private WaitingEntry<T>[] entries = newArray(INITIAL_CAPACITY);

	private int size;

	int size() {
		return this.size;
	}

	@Nullable WaitingEntry<T> peek() {
		return (this.size > 0) ? this.entries[0] : null;
	}

	WaitingEntry<T> get(int index) {
		return this.entries[index];
	}

	void add(WaitingEntry<T> entry) {
		if (this.size == this.entries.length) {
			this.entries = Arrays.copyOf(this.entries, this.size * 2);
		}
		this.size++;
		siftUp(this.size - 1, entry);
	}

	WaitingEntry<T> poll() {
		WaitingEntry<T> first = this.entries[0];
		removeAt(0);
		return first;
	}

	void remove(WaitingEntry<T> entry) {
		removeAt(entry.heapIndex);
	}

	/**
	 * Restores the order after the entry's ready time moved earlier.
	 * @param entry an entry of this heap
	 */
	void movedEarlier(WaitingEntry<T> entry) {
		siftUp(entry.heapIndex, entry);
	}

	void clear() {
		Arrays.fill(this.entries, 0, this.size, null);
		this.size = 0;
		if (this.entries.length > INITIAL_CAPACITY) {
			this.entries = newArray(INITIAL_CAPACITY);
		}
	}

	private void removeAt(int index) {
		WaitingEntry<T> removed = this.entries[index];
		removed.heapIndex = -1;
		int last = --this.size;
		WaitingEntry<T> moved = this.entries[last];
		this.entries[last] = null;
		if (last == index) {
			return;
		}
		siftDown(index, moved);
		if (this.entries[index] == moved) {
			siftUp(index, moved);
		}
	}

	private void siftUp(int index, WaitingEntry<T> entry) {
		while (index > 0) {
			int parentIndex = (index - 1) >>> 1;
			WaitingEntry<T> parent = this.entries[parentIndex];
			if (!entry.isBefore(parent)) {
				break;
			}
			place(index, parent);
			index = parentIndex;
		}
		place(index, entry);
	}

	private void siftDown(int index, WaitingEntry<T> entry) {
		int half = this.size >>> 1;
		while (index < half) {
			int child = 2 * index + 1;
			int right = child + 1;
			if (right < this.size && this.entries[right].isBefore(this.entries[child])) {
				child = right;
			}
			if (!this.entries[child].isBefore(entry)) {
				break;
			}
			place(index, this.entries[child]);
			index = child;
		}
		place(index, entry);
	}

	private void place(int index, WaitingEntry<T> entry) {
		this.entries[index] = entry;
		entry.heapIndex = index;
	}

	@SuppressWarnings("unchecked")
	private static <T> WaitingEntry<T>[] newArray(int capacity) {
		return (WaitingEntry<T>[]) new WaitingEntry<?>[capacity];
	}

}
