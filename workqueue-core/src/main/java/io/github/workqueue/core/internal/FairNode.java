package io.github.workqueue.core.internal;

import java.util.ArrayDeque;
import java.util.HashMap;
import java.util.Map;

import org.jspecify.annotations.Nullable;

/**
 * A node of one priority's fairness tree, reached from the root by a path of fairness
 * keys. A node holds the ready items whose keys end at it (its own items) and has one
 * child per next key that has ready items below it. Its own items form one group beside
 * its children: {@link #turns}, the round-robin order, holds the children and the node
 * itself (standing for its own items); the entry at the head is served next, and a served
 * entry goes to the back (or leaves, when it has nothing left). A node that never had a
 * child has no turns and serves its own items alone; without fairness a priority's tree
 * is that single node.
 *
 * <p>
 * Own items leave in the order they became ready: they arrive in that order, except an
 * item raised from a lower priority, which keeps its older sequence; so a node links
 * in-order arrivals into a list through the slots (no sift, no array) and keeps the
 * others in a {@link ReadyHeap}, and takes the older of the two heads.
 *
 * <p>
 * <b>Invariants.</b> {@link #size} is the number of ready items at and below the node,
 * {@link #ownSize} the number of its own. A child is in {@link #children} and
 * {@link #turns} exactly when its size is positive, at most once; the node is in its own
 * {@link #turns} (when it has turns) exactly when {@link #ownSize} is positive. The slots
 * that name the node as their {@link ReadySlot#leaf} are exactly those of the list from
 * {@link #first} (linked by {@link ReadySlot#next}, in increasing sequence, with
 * {@link ReadySlot#previous} back) and those of {@link #late}, each once.
 *
 * <p>
 * <b>Concurrency.</b> Not thread-safe; guarded by the owning queue's lock.
 *
 * @param <T> the item type
 */
final class FairNode<T> {

	private final @Nullable FairNode<T> parent;

	/** Its key in its parent; null for the root. */
	private final @Nullable String key;

	/** Children by key, made with the first child. */
	private @Nullable HashMap<String, FairNode<T>> children;

	/** The order children and own items are served in, made with the first child. */
	private @Nullable ArrayDeque<FairNode<T>> turns;

	/** The first and last of the own items that arrived in sequence order. */
	private @Nullable ReadySlot<T> first;

	private @Nullable ReadySlot<T> last;

	/** Own items that arrived with an older sequence than the last appended. */
	private @Nullable ReadyHeap<T> late;

	/** The sequence of the last slot appended to the in-order list. */
	private long lastAppended = Long.MIN_VALUE;

	int size;

	private int ownSize;

	private FairNode(@Nullable FairNode<T> parent, @Nullable String key) {
		this.parent = parent;
		this.key = key;
	}

	static <T> FairNode<T> root() {
		return new FairNode<>(null, null);
	}

	/**
	 * Queues the slot under this root node, following its keys.
	 * @param slot the slot, with its sequence set
	 */
	void add(ReadySlot<T> slot) {
		FairNode<T> node = this;
		int depth = 0;
		int depthOfOwn = slot.keys.size();
		while (depth < depthOfOwn) {
			node.size++;
			node = node.childFor(slot.keys.get(depth++));
		}
		node.size++;
		node.addOwn(slot);
	}

	private FairNode<T> childFor(String childKey) {
		HashMap<String, FairNode<T>> byKey = this.children;
		if (byKey == null) {
			byKey = new HashMap<>();
			this.children = byKey;
			this.turns = new ArrayDeque<>();
			if (this.ownSize > 0) {
				this.turns.addLast(this);
			}
		}
		FairNode<T> child = byKey.get(childKey);
		if (child == null) {
			child = new FairNode<>(this, childKey);
			byKey.put(childKey, child);
			this.turns.addLast(child);
		}
		return child;
	}

	private void addOwn(ReadySlot<T> slot) {
		slot.leaf = this;
		if (++this.ownSize == 1 && this.turns != null) {
			this.turns.addLast(this);
		}
		if (slot.sequence > this.lastAppended) {
			ReadySlot<T> tail = this.last;
			slot.previous = tail;
			if (tail == null) {
				this.first = slot;
			}
			else {
				tail.next = slot;
			}
			this.last = slot;
			this.lastAppended = slot.sequence;
		}
		else {
			if (this.late == null) {
				this.late = new ReadyHeap<>();
			}
			this.late.add(slot);
		}
	}

	/**
	 * Takes the next item below this root node: each level serves the entry at the head
	 * of its turns, which then goes to the back, down to a node's own items, of which it
	 * takes the first.
	 * @return the slot, no longer queued
	 */
	ReadySlot<T> poll() {
		FairNode<T> node = this;
		for (;;) {
			node.size--;
			ArrayDeque<FairNode<T>> order = node.turns;
			if (order == null) {
				return node.pollOwn();
			}
			FairNode<T> next = order.pollFirst();
			if (next == node) {
				ReadySlot<T> slot = node.pollOwn();
				if (node.ownSize > 0) {
					order.addLast(node);
				}
				return slot;
			}
			if (next.size > 1) {
				order.addLast(next);
			}
			else {
				node.children.remove(next.key);
			}
			node = next;
		}
	}

	private ReadySlot<T> pollOwn() {
		this.ownSize--;
		ReadySlot<T> head = this.first;
		ReadySlot<T> older = (this.late != null) ? this.late.peek() : null;
		ReadySlot<T> slot;
		if (head == null || (older != null && older.sequence < head.sequence)) {
			slot = this.late.poll();
		}
		else {
			slot = head;
			unlink(head);
		}
		slot.leaf = null;
		return slot;
	}

	private void unlink(ReadySlot<T> slot) {
		ReadySlot<T> before = slot.previous;
		ReadySlot<T> after = slot.next;
		if (before == null) {
			this.first = after;
		}
		else {
			before.next = after;
		}
		if (after == null) {
			this.last = before;
		}
		else {
			after.previous = before;
		}
		slot.previous = null;
		slot.next = null;
	}

	/**
	 * Takes a queued slot out of its node, keeping every other entry's place in the
	 * turns.
	 * @param slot a slot queued under this tree
	 */
	static <T> void remove(ReadySlot<T> slot) {
		FairNode<T> node = slot.leaf;
		if (slot.heapIndex >= 0) {
			node.late.remove(slot);
		}
		else {
			node.unlink(slot);
		}
		slot.leaf = null;
		if (--node.ownSize == 0 && node.turns != null) {
			node.turns.remove(node);
		}
		for (; node != null; node = node.parent) {
			node.size--;
			FairNode<T> up = node.parent;
			if (node.size == 0 && up != null) {
				up.turns.remove(node);
				up.children.remove(node.key);
			}
		}
	}

	/**
	 * Counts the ready items under each child of this node.
	 * @param counts where to add them, by key
	 */
	void countChildren(Map<String, Integer> counts) {
		if (this.children != null) {
			this.children.forEach((childKey, child) -> counts.merge(childKey, child.size, Integer::sum));
		}
	}

}
