package io.github.workqueue.core.internal;

import java.util.HashMap;
import java.util.Map;

import org.jspecify.annotations.Nullable;

/**
 * A node of one priority's fairness tree, reached from the root by a path of fairness
 * keys. A node holds the ready items whose keys end at it (its own items) and has one
 * child per next key that has ready items below it. Its own items form one group beside
 * its children: the turns, the round-robin order, hold the children and the node itself
 * (standing for its own items); the entry at the head is served next, and a served entry
 * goes to the back (or leaves, when it has nothing left). A node that never had a child
 * has no turns and serves its own items alone; without fairness a priority's tree is that
 * single node.
 *
 * <p>
 * The turns are a ring linked through the entries, with no array: {@link #lastTurn} is
 * the entry served last (the back), and the one after it is the head, so that sending the
 * head to the back is one write. A child links to the entry after it by {@link #nextTurn}
 * (its place in its parent's ring), the node itself by {@link #afterOwn} (its own items'
 * place in its own ring); {@link #after(FairNode)} reads the right one.
 *
 * <p>
 * Own items leave in the order they became ready: they arrive in that order, except an
 * item raised from a lower priority, which keeps its older sequence; so a node links
 * in-order arrivals into a list through the slots (no sift, no array) and keeps the
 * others in a {@link ReadyHeap}, and takes the older of the two heads.
 *
 * <p>
 * <b>Invariants.</b> {@link #size} is the number of ready items at and below the node,
 * {@link #ownSize} the number of its own. A child is in {@link #children} and the turns
 * exactly when its size is positive, at most once; the node is in its own turns (when it
 * has children) exactly when {@link #ownSize} is positive; {@link #lastTurn} is null
 * exactly when the turns are empty, and following {@link #after(FairNode)} from it visits
 * every entry once and comes back to it. The slots that name the node as their
 * {@link ReadySlot#leaf} are exactly those of the list from {@link #first} (linked by
 * {@link ReadySlot#next}, in increasing sequence, with {@link ReadySlot#previous} back)
 * and those of {@link #late}, each once.
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

	/**
	 * The entry of its turns served last; null when the turns are empty (always, until
	 * the first child).
	 */
	private @Nullable FairNode<T> lastTurn;

	/** The entry after this one in its parent's turns, while it is in them. */
	private @Nullable FairNode<T> nextTurn;

	/** The entry after its own items in its own turns, while they are in them. */
	private @Nullable FairNode<T> afterOwn;

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
		FairNode<T> child = (byKey != null) ? byKey.get(childKey) : null;
		return (child != null) ? child : newChild(childKey);
	}

	/**
	 * Makes the child of a key that has none, and puts it at the back of the turns; kept
	 * apart from {@link #childFor(String)} so that the common path stays small enough for
	 * the JIT to inline.
	 * @param childKey the key
	 * @return the new child
	 */
	private FairNode<T> newChild(String childKey) {
		HashMap<String, FairNode<T>> byKey = this.children;
		if (byKey == null) {
			byKey = new HashMap<>();
			this.children = byKey;
			if (this.ownSize > 0) {
				appendTurn(this);
			}
		}
		FairNode<T> child = new FairNode<>(this, childKey);
		byKey.put(childKey, child);
		appendTurn(child);
		return child;
	}

	private void addOwn(ReadySlot<T> slot) {
		slot.leaf = this;
		if (++this.ownSize == 1 && this.children != null) {
			appendTurn(this);
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
			addLate(slot);
		}
	}

	private void addLate(ReadySlot<T> slot) {
		if (this.late == null) {
			this.late = new ReadyHeap<>();
		}
		this.late.add(slot);
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
			if (node.children == null) {
				return node.pollOwn();
			}
			FairNode<T> back = node.lastTurn;
			FairNode<T> next = node.after(back);
			if (next == node) {
				ReadySlot<T> slot = node.pollOwn();
				if (node.ownSize > 0) {
					node.lastTurn = next;
				}
				else {
					node.dropHead(back, next);
				}
				return slot;
			}
			if (next.size > 1) {
				node.lastTurn = next;
			}
			else {
				node.dropLastChild(back, next);
			}
			node = next;
		}
	}

	/**
	 * Takes a child whose last item is being served out of the turns and the children.
	 * @param back the entry served last
	 * @param child the entry after it
	 */
	private void dropLastChild(FairNode<T> back, FairNode<T> child) {
		dropHead(back, child);
		this.children.remove(child.key);
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
		if (--node.ownSize == 0 && node.children != null) {
			node.removeTurn(node);
		}
		for (; node != null; node = node.parent) {
			node.size--;
			FairNode<T> up = node.parent;
			if (node.size == 0 && up != null) {
				up.removeTurn(node);
				up.children.remove(node.key);
			}
		}
	}

	/**
	 * Returns the entry after one in this node's turns.
	 * @param entry an entry of its turns: a child, or the node for its own items
	 * @return the entry after it (itself when it is alone)
	 */
	private FairNode<T> after(FairNode<T> entry) {
		return (entry == this) ? entry.afterOwn : entry.nextTurn;
	}

	private void link(FairNode<T> entry, FairNode<T> following) {
		if (entry == this) {
			entry.afterOwn = following;
		}
		else {
			entry.nextTurn = following;
		}
	}

	/**
	 * Puts an entry at the back of this node's turns.
	 * @param entry a child, or the node for its own items; not in the turns
	 */
	private void appendTurn(FairNode<T> entry) {
		FairNode<T> back = this.lastTurn;
		if (back == null) {
			link(entry, entry);
		}
		else {
			link(entry, after(back));
			link(back, entry);
		}
		this.lastTurn = entry;
	}

	/**
	 * Takes the head out of this node's turns.
	 * @param back the entry served last
	 * @param head the entry after it
	 */
	private void dropHead(FairNode<T> back, FairNode<T> head) {
		if (head == back) {
			this.lastTurn = null;
		}
		else {
			link(back, after(head));
		}
	}

	/**
	 * Takes an entry out of this node's turns, wherever it is, keeping the others' order.
	 * @param entry an entry of its turns
	 */
	private void removeTurn(FairNode<T> entry) {
		FairNode<T> before = this.lastTurn;
		while (after(before) != entry) {
			before = after(before);
		}
		dropHead(before, entry);
		if (this.lastTurn == entry) {
			this.lastTurn = before;
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
