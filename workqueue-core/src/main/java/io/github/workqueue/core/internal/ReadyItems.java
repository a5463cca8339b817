package io.github.workqueue.core.internal;

import java.util.ArrayDeque;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.SortedMap;
import java.util.TreeMap;
import java.util.function.Function;

import org.jspecify.annotations.Nullable;

/**
 * The ready items of a queue, in the order they leave: client-go's {@code Queue} behind
 * its {@code Typed} queue, with priorities and fairness. While every ready item has one
 * priority and the queue has no fairness they are one FIFO, in the order they became
 * ready, at the FIFO's cost; once an item of another priority becomes ready (or is
 * raised), they move to {@link PriorityLevels} (by priority, fairness, then the order
 * they became ready), and back to the FIFO when none is left. A queue with fairness
 * always uses the levels.
 *
 * <p>
 * <b>Invariants.</b> {@link #fifo} is empty while {@link #levels} is not null, and holds
 * only entries of priority {@link #fifoPriority}; an entry is here at most once.
 *
 * <p>
 * <b>Concurrency.</b> Not thread-safe: guarded by the owning queue's lock.
 *
 * @param <T> the item type
 */
final class ReadyItems<T> {

	private final boolean fair;

	private final Function<T, List<String>> fairnessKeys;

	private final ArrayDeque<QueueEntry<T>> fifo = new ArrayDeque<>();

	/** The priority of every entry in {@link #fifo}. */
	private int fifoPriority;

	/** The ready entries, when they are not one FIFO. */
	private @Nullable PriorityLevels<T> levels;

	/**
	 * @param defaultPriority the FIFO's first priority
	 * @param fair whether the queue has fairness (then always levels)
	 * @param fairnessKeys an item's fairness keys, for the levels
	 */
	ReadyItems(int defaultPriority, boolean fair, Function<T, List<String>> fairnessKeys) {
		this.fair = fair;
		this.fairnessKeys = fairnessKeys;
		this.fifoPriority = defaultPriority;
		this.levels = fair ? new PriorityLevels<>() : null;
	}

	/** Adds an entry that became ready, at its priority. */
	void add(QueueEntry<T> entry) {
		PriorityLevels<T> ready = this.levels;
		if (ready != null) {
			ready.add(slotOf(entry));
		}
		else if (entry.priority == this.fifoPriority) {
			this.fifo.addLast(entry);
		}
		else if (this.fifo.isEmpty()) {
			this.fifoPriority = entry.priority;
			this.fifo.addLast(entry);
		}
		else {
			prioritize().add(slotOf(entry));
		}
	}

	/**
	 * Moves a ready entry whose priority was raised from {@code from} to its new one,
	 * keeping the moment it became ready.
	 */
	void raised(QueueEntry<T> entry, int from) {
		PriorityLevels<T> ready = this.levels;
		if (ready != null) {
			ready.raise(slotOf(entry), from);
		}
		else if (this.fifo.size() == 1) {
			this.fifoPriority = entry.priority;
		}
		else {
			// The FIFO moves in its order, this entry at its new priority.
			prioritize();
		}
	}

	/**
	 * Takes a ready entry out, wherever it is: linear in the ready items in the FIFO,
	 * logarithmic in the levels.
	 */
	void remove(QueueEntry<T> entry) {
		PriorityLevels<T> ready = this.levels;
		if (ready == null) {
			this.fifo.removeFirstOccurrence(entry);
			return;
		}
		ready.remove(slotOf(entry));
		if (ready.size() == 0 && !this.fair) {
			this.levels = null;
		}
	}

	/** Takes the next ready entry, or null when none is ready. */
	@Nullable QueueEntry<T> poll() {
		PriorityLevels<T> ready = this.levels;
		if (ready == null) {
			return this.fifo.pollFirst();
		}
		ReadySlot<T> slot = ready.poll();
		if (slot == null) {
			return null;
		}
		if (ready.size() == 0 && !this.fair) {
			// Back to the FIFO, until items of two priorities are ready again.
			this.levels = null;
		}
		return slot.entry;
	}

	int size() {
		PriorityLevels<T> ready = this.levels;
		return (ready != null) ? ready.size() : this.fifo.size();
	}

	/** Ready items per first fairness key; empty without fairness. */
	Map<String, Integer> sizeByFirstKey() {
		PriorityLevels<T> ready = this.levels;
		return (ready != null && this.fair) ? ready.sizeByFirstKey() : Map.of();
	}

	/** Ready items per priority, highest first, only priorities that have some. */
	SortedMap<Integer, Integer> sizeByPriority() {
		PriorityLevels<T> ready = this.levels;
		if (ready != null) {
			return ready.sizeByPriority();
		}
		TreeMap<Integer, Integer> sizes = new TreeMap<>(Collections.reverseOrder());
		if (!this.fifo.isEmpty()) {
			sizes.put(this.fifoPriority, this.fifo.size());
		}
		return sizes;
	}

	/** Moves the FIFO's entries to priority levels, in the order they became ready. */
	private PriorityLevels<T> prioritize() {
		PriorityLevels<T> ready = new PriorityLevels<>();
		for (QueueEntry<T> entry : this.fifo) {
			ready.add(slotOf(entry));
		}
		this.fifo.clear();
		this.levels = ready;
		return ready;
	}

	private ReadySlot<T> slotOf(QueueEntry<T> entry) {
		ReadySlot<T> slot = entry.slot;
		if (slot == null) {
			slot = new ReadySlot<>(entry, this.fairnessKeys.apply(entry.item));
			entry.slot = slot;
		}
		return slot;
	}

}
