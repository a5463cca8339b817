package io.github.workqueue.core.internal;

import java.util.ArrayDeque;
import java.util.HashMap;
import java.util.Map;

import org.jspecify.annotations.Nullable;

/**
 * A node of one priority's fairness tree. An inner node has one child per fairness key of
 * its level that has ready items below it, in {@link #turns}, the round-robin order: the
 * child at the head is served next, and a served child goes to the back (or leaves, when
 * it has nothing left). A leaf holds the ready items of one path of keys, in the order
 * they became ready: items arrive in that order, except an item raised from a lower
 * priority, which keeps its older sequence; so a leaf appends in-order arrivals to a
 * deque (no sift) and keeps the others in a {@link ReadyHeap}, and takes the older of the
 * two heads. A slot raised out of a leaf leaves its deque reference behind, skipped when
 * it reaches the head (it no longer names this leaf, and since its priority only grows it
 * never comes back). The leaf of an item is reached by its keys and then one more step,
 * to the {@linkplain #end end child}, so that items with fewer keys than others have a
 * leaf of their own beside their siblings' subtrees. Without fairness a priority's tree
 * is a single leaf.
 *
 * <p>
 * <b>Invariants.</b> {@link #size} is the number of ready items below the node; a child
 * is in {@link #children} and {@link #turns} exactly when its size is positive, at most
 * once. In a leaf, each slot that names it is once in {@link #inOrder} (which is in
 * increasing sequence) or in {@link #late}; {@link #inOrder} may also hold slots that no
 * longer name it.
 *
 * <p>
 * <b>Concurrency.</b> Not thread-safe; guarded by the owning queue's lock.
 *
 * @param <T> the item type
 */
final class FairNode<T> {

	final @Nullable FairNode<T> parent;

	/** Its key in its parent; null for the root and for end children. */
	final @Nullable String key;

	/** Inner nodes: children by key, the end child, and the order they are served in. */
	private final @Nullable HashMap<String, FairNode<T>> children;

	private @Nullable FairNode<T> end;

	private final @Nullable ArrayDeque<FairNode<T>> turns;

	/** Leaves: the items that arrived in sequence order. */
	private final @Nullable ArrayDeque<ReadySlot<T>> inOrder;

	/** Leaves: the items that arrived with an older sequence than the last appended. */
	private final @Nullable ReadyHeap<T> late;

	/** Leaves: the sequence of the last slot appended to {@link #inOrder}. */
	private long lastAppended = Long.MIN_VALUE;

	int size;

	private FairNode(@Nullable FairNode<T> parent, @Nullable String key, boolean leaf) {
		this.parent = parent;
		this.key = key;
		this.children = leaf ? null : new HashMap<>();
		this.turns = leaf ? null : new ArrayDeque<>();
		this.inOrder = leaf ? new ArrayDeque<>() : null;
		this.late = leaf ? new ReadyHeap<>() : null;
	}

	static <T> FairNode<T> root(boolean fair) {
		return new FairNode<>(null, null, !fair);
	}

	/**
	 * Queues the slot under this node, by its keys from the given depth on.
	 * @param slot the slot, with its sequence set
	 * @param depth how many of its keys lead to this node
	 */
	void add(ReadySlot<T> slot, int depth) {
		this.size++;
		if (this.inOrder != null) {
			slot.leaf = this;
			if (slot.sequence > this.lastAppended) {
				this.inOrder.addLast(slot);
				this.lastAppended = slot.sequence;
			}
			else {
				this.late.add(slot);
			}
			return;
		}
		boolean last = depth == slot.keys.size();
		String childKey = last ? null : slot.keys.get(depth);
		FairNode<T> child = last ? this.end : this.children.get(childKey);
		if (child == null) {
			child = new FairNode<>(this, childKey, last);
			if (last) {
				this.end = child;
			}
			else {
				this.children.put(childKey, child);
			}
			this.turns.addLast(child);
		}
		child.add(slot, depth + 1);
	}

	/**
	 * Takes the next item below this node: the first item of the leaf reached by taking
	 * each level's next child, which then goes to the back of its level.
	 * @return the slot, no longer queued
	 */
	ReadySlot<T> poll() {
		this.size--;
		if (this.inOrder != null) {
			ReadySlot<T> slot = pollLeaf();
			slot.leaf = null;
			return slot;
		}
		FairNode<T> next = this.turns.pollFirst();
		ReadySlot<T> slot = next.poll();
		if (next.size > 0) {
			this.turns.addLast(next);
		}
		else {
			forget(next);
		}
		return slot;
	}

	private ReadySlot<T> pollLeaf() {
		ReadySlot<T> head;
		while ((head = this.inOrder.peekFirst()) != null && head.leaf != this) {
			this.inOrder.pollFirst();
		}
		ReadySlot<T> older = this.late.peek();
		if (head == null || (older != null && older.sequence < head.sequence)) {
			return this.late.poll();
		}
		return this.inOrder.pollFirst();
	}

	private void forget(FairNode<T> child) {
		if (child.key == null) {
			this.end = null;
		}
		else {
			this.children.remove(child.key);
		}
	}

	/**
	 * Takes a queued slot out of its leaf, keeping every other node's place in its turns.
	 * @param slot a slot queued under this tree
	 */
	static <T> void remove(ReadySlot<T> slot) {
		FairNode<T> node = slot.leaf;
		if (slot.heapIndex >= 0) {
			node.late.remove(slot);
		}
		slot.leaf = null;
		for (; node != null; node = node.parent) {
			node.size--;
			FairNode<T> parent = node.parent;
			if (node.size == 0 && parent != null) {
				parent.turns.remove(node);
				parent.forget(node);
			}
		}
	}

	/**
	 * Counts the ready items under each keyed child of this node.
	 * @param counts where to add them, by key
	 */
	void countChildren(Map<String, Integer> counts) {
		if (this.children != null) {
			this.children.forEach((childKey, child) -> counts.merge(childKey, child.size, Integer::sum));
		}
	}

}
