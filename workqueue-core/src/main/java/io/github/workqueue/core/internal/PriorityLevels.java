package io.github.workqueue.core.internal;

import java.util.Collections;
import java.util.Map;
import java.util.SortedMap;
import java.util.TreeMap;

import org.jspecify.annotations.Nullable;

/**
 * The ready items of a queue that orders by priority (and fairness): one {@link FairNode
 * fairness tree} per priority that has ready items, highest first. Within a priority,
 * items leave in the order they became ready (their sequence), or, with fairness,
 * round-robin over their keys level by level and in that order within one path of keys.
 *
 * <p>
 * <b>Invariants.</b> A priority is in {@link #levels} exactly when its tree has ready
 * items; {@link #size} is the sum of the trees' sizes; sequences are given in the order
 * items become ready and never reused.
 *
 * <p>
 * <b>Concurrency.</b> Not thread-safe; guarded by the owning queue's lock.
 *
 * @param <T> the item type
 */
final class PriorityLevels<T> {

	private static final int RECENT = 8;

	private final TreeMap<Integer, FairNode<T>> levels = new TreeMap<>(Collections.reverseOrder());

	/**
	 * Trees of recently used priorities, by priority modulo {@link #RECENT}, with
	 * {@link #recentPriorities}: a priority's tree without a map lookup. An entry is the
	 * tree in {@link #levels} of its priority, or null.
	 */
	@SuppressWarnings("unchecked")
	private final @Nullable FairNode<T>[] recentTrees = (FairNode<T>[]) new FairNode<?>[RECENT];

	private final int[] recentPriorities = new int[RECENT];

	private long nextSequence;

	private int size;

	/** The tree of the highest priority, null when nothing is ready. */
	private @Nullable FairNode<T> top;

	private int topPriority;

	int size() {
		return this.size;
	}

	/**
	 * Queues an item that became ready now, at its entry's priority.
	 * @param slot the item's slot, not queued
	 */
	void add(ReadySlot<T> slot) {
		slot.sequence = this.nextSequence++;
		place(slot);
	}

	/**
	 * Moves a queued item to its entry's new, higher priority, keeping the moment it
	 * became ready.
	 * @param slot the item's slot, queued, its entry's priority already raised
	 * @param from the priority it is queued at
	 */
	void raise(ReadySlot<T> slot, int from) {
		FairNode.remove(slot);
		this.size--;
		if (treeOf(from).size == 0) {
			removeTree(from);
		}
		place(slot);
	}

	/**
	 * Takes a queued item out.
	 * @param slot the item's slot, queued
	 */
	void remove(ReadySlot<T> slot) {
		int priority = slot.entry.priority;
		FairNode.remove(slot);
		this.size--;
		if (treeOf(priority).size == 0) {
			removeTree(priority);
		}
	}

	private void place(ReadySlot<T> slot) {
		treeOf(slot.entry.priority).add(slot);
		this.size++;
	}

	/**
	 * Returns the tree of a priority, made when it has none.
	 * @param priority the priority
	 * @return its tree
	 */
	private FairNode<T> treeOf(int priority) {
		int index = priority & (RECENT - 1);
		FairNode<T> root = this.recentTrees[index];
		if (root != null && this.recentPriorities[index] == priority) {
			return root;
		}
		return lookUpTree(priority);
	}

	/**
	 * Returns the tree of a priority from the map, made when it has none, and remembers
	 * it as recent; apart from {@link #treeOf(int)} so that its common path stays small
	 * enough for the JIT to inline.
	 * @param priority the priority
	 * @return its tree
	 */
	private FairNode<T> lookUpTree(int priority) {
		int index = priority & (RECENT - 1);
		FairNode<T> root = this.levels.get(priority);
		if (root == null) {
			root = FairNode.root();
			this.levels.put(priority, root);
			if (this.top == null || priority > this.topPriority) {
				this.top = root;
				this.topPriority = priority;
			}
		}
		this.recentTrees[index] = root;
		this.recentPriorities[index] = priority;
		return root;
	}

	private void removeTree(int priority) {
		this.levels.remove(priority);
		int index = priority & (RECENT - 1);
		if (this.recentPriorities[index] == priority) {
			this.recentTrees[index] = null;
		}
		if (priority == this.topPriority) {
			findTop();
		}
	}

	private void findTop() {
		Map.Entry<Integer, FairNode<T>> first = this.levels.firstEntry();
		this.top = (first != null) ? first.getValue() : null;
		this.topPriority = (first != null) ? first.getKey() : 0;
	}

	/**
	 * Takes the next ready item: the highest priority's next item.
	 * @return its slot, or null when nothing is ready
	 */
	@Nullable ReadySlot<T> poll() {
		FairNode<T> root = this.top;
		if (root == null) {
			return null;
		}
		ReadySlot<T> slot = root.poll();
		if (root.size == 0) {
			removeTree(this.topPriority);
		}
		this.size--;
		return slot;
	}

	SortedMap<Integer, Integer> sizeByPriority() {
		TreeMap<Integer, Integer> sizes = new TreeMap<>(Collections.reverseOrder());
		this.levels.forEach((priority, root) -> sizes.put(priority, root.size));
		return sizes;
	}

	/**
	 * Counts the ready items by their first fairness key, over every priority.
	 * @return first key to number of ready items
	 */
	Map<String, Integer> sizeByFirstKey() {
		Map<String, Integer> sizes = new TreeMap<>();
		this.levels.values().forEach((root) -> root.countChildren(sizes));
		return sizes;
	}

}
