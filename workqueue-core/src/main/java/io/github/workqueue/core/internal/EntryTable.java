package io.github.workqueue.core.internal;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.function.Consumer;

import org.jspecify.annotations.Nullable;

/**
 * A queue's entries by item: an open-addressing hash table (linear probing, at most half
 * full) that holds the {@link QueueEntry} objects themselves, with no node per mapping.
 * It replaces a {@code ConcurrentHashMap} whose node allocation and resize copies were
 * most of the cost of a first add.
 *
 * <p>
 * <b>Concurrency.</b> Every change is made under the owning queue's lock. Reads under
 * that lock are exact. {@link #find(Object)} and {@link #forEach(Consumer)} may also run
 * without it, and then promise less than a concurrent map: such a read may miss an entry
 * that a concurrent change is moving (a removal shifts later entries back; a resize
 * publishes a new array) and may return an entry that has since left the table. Both
 * readers tolerate that: a duplicate add checks the state of the entry it found (an entry
 * that left is {@link QueueEntry#REMOVED} for ever) and takes the lock when it finds
 * none; the oldest-ready gauge is a moment's estimate. Slots are written with release
 * stores and read with acquire loads, and the array is published through a volatile
 * field, so a reader that finds an entry sees it fully made.
 *
 * <p>
 * <b>Invariants</b>, under the lock: {@link #size} is the number of non-null slots and at
 * most half the length of {@link #slots} (so every probe ends at a null slot); each entry
 * sits in the first null-free run from its home slot, with no null between its home and
 * it; an item has at most one entry. Keys whose hash codes are equal probe one after
 * another (there are no tree bins, as in a {@code HashMap}), so such keys cost time in
 * proportion to their number.
 *
 * @param <T> the item type
 */
final class EntryTable<T> {

	private static final int INITIAL_CAPACITY = 16;

	private static final VarHandle SLOT = MethodHandles.arrayElementVarHandle(QueueEntry[].class);

	private volatile @Nullable QueueEntry<T>[] slots = newArray(INITIAL_CAPACITY);

	private int size;

	/** The number of entries; under the lock. */
	int size() {
		return this.size;
	}

	/**
	 * The item's entry; exact under the lock, and without it may miss (see the class
	 * comment).
	 * @param item the item
	 * @return its entry, or null
	 */
	@Nullable QueueEntry<T> find(Object item) {
		QueueEntry<T>[] table = this.slots;
		int mask = table.length - 1;
		int index = home(item, mask);
		for (int probes = 0; probes <= mask; probes++) {
			QueueEntry<T> entry = slot(table, index);
			if (entry == null) {
				return null;
			}
			if (entry.item == item || entry.item.equals(item)) {
				return entry;
			}
			index = (index + 1) & mask;
		}
		return null;
	}

	/**
	 * Adds an entry whose item has none in the table; under the lock.
	 * @param entry the new entry
	 */
	void insert(QueueEntry<T> entry) {
		if (2 * (this.size + 1) > this.slots.length) {
			this.slots = resized(this.slots, 2 * this.slots.length);
		}
		QueueEntry<T>[] table = this.slots;
		int mask = table.length - 1;
		int index = home(entry.item, mask);
		while (table[index] != null) {
			index = (index + 1) & mask;
		}
		SLOT.setRelease(table, index, entry);
		this.size++;
	}

	/**
	 * Removes this entry if the table holds it; under the lock. The entries after it in
	 * its run move back, so that no probe passes a null before reaching its entry.
	 * @param entry the entry
	 */
	void remove(QueueEntry<T> entry) {
		QueueEntry<T>[] table = this.slots;
		int mask = table.length - 1;
		int hole = home(entry.item, mask);
		while (table[hole] != entry) {
			if (table[hole] == null) {
				return;
			}
			hole = (hole + 1) & mask;
		}
		int next = (hole + 1) & mask;
		QueueEntry<T> candidate;
		while ((candidate = table[next]) != null) {
			int candidateHome = home(candidate.item, mask);
			// The candidate may fill the hole unless its home lies after the hole, up to
			// the candidate's own slot (cyclically).
			if (((next - candidateHome) & mask) >= ((next - hole) & mask)) {
				SLOT.setRelease(table, hole, candidate);
				hole = next;
			}
			next = (next + 1) & mask;
		}
		SLOT.setRelease(table, hole, null);
		this.size--;
	}

	/**
	 * Runs the action for each entry of the array as it is read; without the lock an
	 * entry may be missed or visited twice (see the class comment).
	 * @param action what to run
	 */
	void forEach(Consumer<? super QueueEntry<T>> action) {
		QueueEntry<T>[] table = this.slots;
		for (int i = 0; i < table.length; i++) {
			QueueEntry<T> entry = slot(table, i);
			if (entry != null) {
				action.accept(entry);
			}
		}
	}

	private static int home(Object item, int mask) {
		// Fibonacci hashing, the product's top bits: spreads keys whose hash codes are
		// consecutive (boxed numbers) over the table, so that they form no long runs.
		return (item.hashCode() * 0x9E3779B9) >>> Integer.numberOfLeadingZeros(mask);
	}

	private static <T> QueueEntry<T>[] resized(QueueEntry<T>[] table, int capacity) {
		QueueEntry<T>[] grown = newArray(capacity);
		int mask = capacity - 1;
		for (QueueEntry<T> entry : table) {
			if (entry != null) {
				int index = home(entry.item, mask);
				while (grown[index] != null) {
					index = (index + 1) & mask;
				}
				grown[index] = entry;
			}
		}
		return grown;
	}

	@SuppressWarnings("unchecked")
	private static <T> @Nullable QueueEntry<T> slot(QueueEntry<T>[] table, int index) {
		return (QueueEntry<T>) SLOT.getAcquire(table, index);
	}

	@SuppressWarnings("unchecked")
	private static <T> @Nullable QueueEntry<T>[] newArray(int capacity) {
		return (QueueEntry<T>[]) new QueueEntry<?>[capacity];
	}

}
