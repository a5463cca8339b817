package io.github.workqueue.core.internal;

import java.util.Arrays;

import org.jspecify.annotations.Nullable;

/**
 * The entries waiting for their delay in a {@link DefaultDelayingQueue}: a binary
 * min-heap ordered by ready time, then by sequence (the order of the item's first
 * {@code addAfter} since it last waited), with exact removal.
 *
 * <p>
 * <b>Layout.</b> Two sets of parallel arrays, all primitive but one. The heap's nodes, in
 * heap order: {@link #readyAts} and {@link #nodeSlots}. The slots, which do not move
 * while their entry waits: {@link #entries}, {@link #sequences} and {@link #positions}
 * (the index of the slot's node). A waiting entry knows its slot
 * ({@link QueueEntry#waitingSlot}). So a sift compares and moves primitives only (it
 * reads a sequence only when two ready times are equal), never reads an entry and never
 * stores a reference (no garbage collector write barrier), and a waiting add allocates
 * nothing once the arrays have grown: 28 bytes per waiting entry. Removal (an add of a
 * waiting item, a remove, an earlier ready time) finds the node through the slot: O(log
 * n), no stale nodes, nothing kept of a removed entry.
 *
 * <p>
 * <b>Invariants.</b> The nodes {@code [0, length)} form a heap by (ready time, sequence).
 * For every node {@code i}: {@code positions[nodeSlots[i]] == i} and
 * {@code entries[nodeSlots[i]].waitingSlot == nodeSlots[i]}. Every other slot below
 * {@code capacity} that was ever used has a null entry and is on the free list, which
 * starts at {@link #firstFree} and continues through {@link #positions}; so when the list
 * is empty, the slots in use are exactly {@code [0, length)}, and a full heap has no free
 * slot. An entry not in the heap has {@link #NO_SLOT}. The arrays grow by doubling and
 * shrink only at {@link #clear()}.
 *
 * <p>
 * <b>Concurrency.</b> Not thread-safe; guarded by the owning queue's lock.
 *
 * @param <T> the item type
 */
final class WaitingHeap<T> {

	/** The {@link QueueEntry#waitingSlot} of an entry that is not waiting. */
	static final int NO_SLOT = -1;

	private static final int INITIAL_CAPACITY = 16;

	/** By node: the ready time. */
	private long[] readyAts;

	/** By node: its slot. */
	private int[] nodeSlots;

	/** By slot: the entry, or null for a free slot. */
	private QueueEntry<T>[] entries;

	/** By slot: the entry's sequence. */
	private long[] sequences;

	/** By slot: its node's index, or for a free slot the next free slot. */
	private int[] positions;

	/** Nodes in the heap: the waiting entries. */
	private int length;

	/** The first slot of the free list, or {@link #NO_SLOT}. */
	private int firstFree = NO_SLOT;

	WaitingHeap() {
		allocate(INITIAL_CAPACITY);
	}

	/** The number of waiting entries. */
	int size() {
		return this.length;
	}

	/**
	 * The first ready time; only when {@link #size()} is not zero.
	 * @return the ready time of the first entry in order
	 */
	long firstReadyAt() {
		return this.readyAts[0];
	}

	/**
	 * The ready time of a waiting entry.
	 * @param entry an entry in the heap
	 * @return its ready time
	 */
	long readyAt(QueueEntry<T> entry) {
		return this.readyAts[this.positions[entry.waitingSlot]];
	}

	/**
	 * Adds an entry that is not waiting.
	 * @param entry the entry, whose {@link QueueEntry#waitingSlot} is {@link #NO_SLOT}
	 * @param readyAt when it becomes ready
	 * @param sequence its place among entries of the same ready time
	 */
	void add(QueueEntry<T> entry, long readyAt, long sequence) {
		if (this.length == this.readyAts.length) {
			grow();
		}
		int slot = this.firstFree;
		if (slot != NO_SLOT) {
			this.firstFree = this.positions[slot];
		}
		else {
			slot = this.length;
		}
		this.entries[slot] = entry;
		this.sequences[slot] = sequence;
		entry.waitingSlot = slot;
		siftUp(this.length++, readyAt, slot);
	}

	/**
	 * Moves a waiting entry's ready time earlier, keeping its sequence.
	 * @param entry an entry in the heap
	 * @param readyAt its new ready time, earlier than its current one
	 */
	void moveEarlier(QueueEntry<T> entry, long readyAt) {
		int slot = entry.waitingSlot;
		siftUp(this.positions[slot], readyAt, slot);
	}

	/**
	 * Removes a waiting entry.
	 * @param entry an entry in the heap
	 */
	void remove(QueueEntry<T> entry) {
		int slot = entry.waitingSlot;
		int index = this.positions[slot];
		releaseSlot(entry, slot);
		removeNode(index);
	}

	/**
	 * Removes and returns the first entry if it is ready at the given time.
	 * @param now the time; {@link Long#MAX_VALUE} takes the first entry whatever its
	 * ready time
	 * @return the entry, no longer waiting, or null if none is ready
	 */
	@Nullable QueueEntry<T> pollReady(long now) {
		if (this.length == 0 || this.readyAts[0] > now) {
			return null;
		}
		int slot = this.nodeSlots[0];
		QueueEntry<T> entry = this.entries[slot];
		releaseSlot(entry, slot);
		removeNode(0);
		return entry;
	}

	/** Empties the heap and lets its arrays go; only when no entry waits. */
	void clear() {
		if (this.length != 0) {
			throw new IllegalStateException(this.length + " entries still waiting");
		}
		allocate(INITIAL_CAPACITY);
		this.firstFree = NO_SLOT;
	}

	private void releaseSlot(QueueEntry<T> entry, int slot) {
		this.entries[slot] = null;
		entry.waitingSlot = NO_SLOT;
		this.positions[slot] = this.firstFree;
		this.firstFree = slot;
	}

	/** Removes the node at an index, filling its place with the last node. */
	private void removeNode(int index) {
		int last = --this.length;
		if (index == last) {
			return;
		}
		long readyAt = this.readyAts[last];
		int slot = this.nodeSlots[last];
		if (index > 0 && precedes(readyAt, slot, (index - 1) >>> 1)) {
			siftUp(index, readyAt, slot);
		}
		else {
			siftDown(index, readyAt, slot);
		}
	}

	/** Whether the node (readyAt, slot) comes before the node at an index. */
	private boolean precedes(long readyAt, int slot, int index) {
		return precedes(readyAt, slot, this.readyAts[index], this.nodeSlots[index]);
	}

	private void siftUp(int index, long readyAt, int slot) {
		int hole = index;
		while (hole > 0) {
			int parent = (hole - 1) >>> 1;
			if (!precedes(readyAt, slot, parent)) {
				break;
			}
			move(parent, hole);
			hole = parent;
		}
		place(hole, readyAt, slot);
	}

	private void siftDown(int index, long readyAt, int slot) {
		int hole = index;
		int half = this.length >>> 1;
		while (hole < half) {
			int child = 2 * hole + 1;
			int right = child + 1;
			if (right < this.length && precedes(this.readyAts[right], this.nodeSlots[right], child)) {
				child = right;
			}
			if (!precedes(this.readyAts[child], this.nodeSlots[child], readyAt, slot)) {
				break;
			}
			move(child, hole);
			hole = child;
		}
		place(hole, readyAt, slot);
	}

	/** Whether node A (readyAt, slot) comes before node B. */
	private boolean precedes(long readyAtA, int slotA, long readyAtB, int slotB) {
		return readyAtA < readyAtB || (readyAtA == readyAtB && this.sequences[slotA] < this.sequences[slotB]);
	}

	private void move(int from, int to) {
		this.readyAts[to] = this.readyAts[from];
		int slot = this.nodeSlots[from];
		this.nodeSlots[to] = slot;
		this.positions[slot] = to;
	}

	private void place(int index, long readyAt, int slot) {
		this.readyAts[index] = readyAt;
		this.nodeSlots[index] = slot;
		this.positions[slot] = index;
	}

	private void grow() {
		int capacity = this.readyAts.length * 2;
		this.readyAts = Arrays.copyOf(this.readyAts, capacity);
		this.nodeSlots = Arrays.copyOf(this.nodeSlots, capacity);
		this.entries = Arrays.copyOf(this.entries, capacity);
		this.sequences = Arrays.copyOf(this.sequences, capacity);
		this.positions = Arrays.copyOf(this.positions, capacity);
	}

	@SuppressWarnings("unchecked")
	private void allocate(int capacity) {
		this.readyAts = new long[capacity];
		this.nodeSlots = new int[capacity];
		this.entries = (QueueEntry<T>[]) new QueueEntry<?>[capacity];
		this.sequences = new long[capacity];
		this.positions = new int[capacity];
	}

}
