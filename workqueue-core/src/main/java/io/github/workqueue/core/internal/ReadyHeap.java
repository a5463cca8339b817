package io.github.workqueue.core.internal;

import java.util.Arrays;

import org.jspecify.annotations.Nullable;

/**
 * A binary min-heap of {@link ReadySlot} by sequence: the ready items of one fairness
 * group of one priority, in the order they became ready. Each slot knows its index, so a
 * slot can be removed in O(log n) (when its item's priority is raised). Slots mostly
 * arrive in sequence order, where an add costs no sift.
 *
 * <p>
 * <b>Concurrency.</b> Not thread-safe; guarded by the owning queue's lock.
 *
 * @param <T> the item type
 */
final class ReadyHeap<T> {

	private static final int INITIAL_CAPACITY = 4;

	@SuppressWarnings("unchecked")
	private ReadySlot<T>[] slots = (ReadySlot<T>[]) new ReadySlot<?>[INITIAL_CAPACITY];

	private int size;

	void add(ReadySlot<T> slot) {
		if (this.size == this.slots.length) {
			this.slots = Arrays.copyOf(this.slots, this.size * 2);
		}
		this.size++;
		siftUp(this.size - 1, slot);
	}

	@Nullable ReadySlot<T> peek() {
		return (this.size > 0) ? this.slots[0] : null;
	}

	@Nullable ReadySlot<T> poll() {
		if (this.size == 0) {
			return null;
		}
		ReadySlot<T> first = this.slots[0];
		removeAt(0);
		return first;
	}

	void remove(ReadySlot<T> slot) {
		removeAt(slot.heapIndex);
	}

	private void removeAt(int index) {
		ReadySlot<T> removed = this.slots[index];
		removed.heapIndex = -1;
		int last = --this.size;
		ReadySlot<T> moved = this.slots[last];
		this.slots[last] = null;
		if (last == index) {
			return;
		}
		siftDown(index, moved);
		if (this.slots[index] == moved) {
			siftUp(index, moved);
		}
	}

	private void siftUp(int index, ReadySlot<T> slot) {
		while (index > 0) {
			int parentIndex = (index - 1) >>> 1;
			ReadySlot<T> parent = this.slots[parentIndex];
			if (parent.sequence < slot.sequence) {
				break;
			}
			place(index, parent);
			index = parentIndex;
		}
		place(index, slot);
	}

	private void siftDown(int index, ReadySlot<T> slot) {
		int half = this.size >>> 1;
		while (index < half) {
			int child = 2 * index + 1;
			int right = child + 1;
			if (right < this.size && this.slots[right].sequence < this.slots[child].sequence) {
				child = right;
			}
			if (slot.sequence < this.slots[child].sequence) {
				break;
			}
			place(index, this.slots[child]);
			index = child;
		}
		place(index, slot);
	}

	private void place(int index, ReadySlot<T> slot) {
		this.slots[index] = slot;
		slot.heapIndex = index;
	}

}
