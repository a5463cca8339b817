package io.github.workqueue.core.internal;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.function.Consumer;

import org.jspecify.annotations.Nullable;

/**
 * A queue's entries by item: an open-addressing hash table (linear probing) that holds
 * the {@link QueueEntry} objects themselves, with no node per mapping. It replaces a
 * {@code ConcurrentHashMap} whose node allocation and resize copies were most of the cost
 * of a first add. A removed entry leaves a {@link #TOMBSTONE} that later inserts reuse,
 * so no entry ever moves within an array: a removal is one store.
 *
 * <p>
 * <b>Concurrency.</b> Every change is made under the owning queue's lock. Reads under
 * that lock are exact. {@link #find(Object)} and {@link #forEach(Consumer)} may also run
 * without it, and then promise less than a concurrent map: such a read may miss an entry
 * inserted into a new array while it read the old one, and may return an entry that has
 * since left the table. Both readers tolerate that: a duplicate add checks the state of
 * the entry it found (an entry that left is {@link QueueEntry#REMOVED} for ever) and
 * takes the lock when it finds none; the oldest-ready gauge is a moment's estimate. Slots
 * are written with release stores and read with acquire loads, and an array is published
 * through a volatile field once filled, so a reader that finds an entry sees it fully
 * made.
 *
 * <p>
 * <b>Invariants</b>, under the lock: {@link #size} counts the entries and {@link #used}
 * the slots that are not null (entries and tombstones); {@code used} is at most half the
 * length of {@link #slots}, so every probe ends at a null slot; an entry sits after its
 * home slot with no null between them; an item has at most one entry. Keys whose hash
 * codes are equal probe one after another (there are no tree bins, as in a
 * {@code HashMap}), so such keys cost time in proportion to their number. When the used
 * slots reach half the array, it is rebuilt without tombstones, at twice its length if
 * the entries fill more than a quarter of it; it never shrinks, as a
 * {@code ConcurrentHashMap}'s does not.
 *
 * @param <T> the item type
 */
final class EntryTable<T> {

	private static final int INITIAL_CAPACITY = 16;

	private static final VarHandle SLOT = MethodHandles.arrayElementVarHandle(QueueEntry[].class);

	/** What a removal leaves in its slot; never equal to an item. */
	private static final QueueEntry<?> TOMBSTONE = new QueueEntry<>(new Object(), QueueEntry.REMOVED, 0);

	private volatile @Nullable QueueEntry<T>[] slots = newArray(INITIAL_CAPACITY);

	private int size;

	private int used;

	/** The number of entries; under the lock. */
	int size() {
		return this.size;
	}

	/** The length of the array; under the lock. */
	int capacity() {
		return this.slots.length;
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
			if (entry != TOMBSTONE && (entry.item == item || entry.item.equals(item))) {
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
		if (2 * (this.used + 1) > this.slots.length) {
			int capacity = this.slots.length;
			this.slots = rebuilt(this.slots, (4 * (this.size + 1) > capacity) ? 2 * capacity : capacity);
			this.used = this.size;
		}
		QueueEntry<T>[] table = this.slots;
		int mask = table.length - 1;
		int index = home(entry.item, mask);
		QueueEntry<T> occupant;
		while ((occupant = table[index]) != null && occupant != TOMBSTONE) {
			index = (index + 1) & mask;
		}
		if (occupant == null) {
			this.used++;
		}
		SLOT.setRelease(table, index, entry);
		this.size++;
	}

	/**
	 * Removes this entry if the table holds it, leaving a tombstone; under the lock.
	 * @param entry the entry
	 */
	void remove(QueueEntry<T> entry) {
		QueueEntry<T>[] table = this.slots;
		int mask = table.length - 1;
		int index = home(entry.item, mask);
		QueueEntry<T> occupant;
		while ((occupant = table[index]) != entry) {
			if (occupant == null) {
				return;
			}
			index = (index + 1) & mask;
		}
		SLOT.setRelease(table, index, TOMBSTONE);
		this.size--;
	}

	/**
	 * Runs the action for each entry of the array as it is read; without the lock an
	 * entry may be missed (see the class comment).
	 * @param action what to run
	 */
	void forEach(Consumer<? super QueueEntry<T>> action) {
		QueueEntry<T>[] table = this.slots;
		for (int i = 0; i < table.length; i++) {
			QueueEntry<T> entry = slot(table, i);
			if (entry != null && entry != TOMBSTONE) {
				action.accept(entry);
			}
		}
	}

	private static int home(Object item, int mask) {
		// Fibonacci hashing, the product's top bits: spreads keys whose hash codes are
		// consecutive (boxed numbers) over the table, so that they form no long runs.
		return (item.hashCode() * 0x9E3779B9) >>> Integer.numberOfLeadingZeros(mask);
	}

	/** A new array of the entries, without tombstones. */
	private static <T> QueueEntry<T>[] rebuilt(QueueEntry<T>[] table, int capacity) {
		QueueEntry<T>[] grown = newArray(capacity);
		int mask = capacity - 1;
		for (QueueEntry<T> entry : table) {
			if (entry != null && entry != TOMBSTONE) {
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
