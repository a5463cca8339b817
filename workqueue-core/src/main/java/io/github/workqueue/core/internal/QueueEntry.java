package io.github.workqueue.core.internal;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;

import org.jspecify.annotations.Nullable;

/**
 * One item's record in a {@link DefaultWorkQueue}: its state bits, its metrics
 * timestamps, its place in the list of items being processed, and its waiting entry.
 *
 * <p>
 * <b>State.</b> {@link #state} is a set of bits: {@link #DIRTY} (client-go's dirty set),
 * {@link #PROCESSING} (client-go's processing set) and {@link #WAITING} (an
 * {@code addAfter} is pending). An item is queued exactly when it is dirty and not
 * processing. An entry with no bit set is idle and leaves the queue's map; it is then
 * marked {@link #REMOVED} and never used again, so a state read from any entry is the
 * item's state at the moment of the read.
 *
 * <p>
 * <b>Concurrency.</b> Every field but {@link #state} is guarded by the owning queue's
 * lock. {@link #state} changes only under that lock and only by {@link #exchange(int)},
 * an atomic read-modify-write, except that a duplicate add outside the lock may
 * {@link #confirm(int)} it: a compare-and-set to the same value. Because every change is
 * a read-modify-write, the transition that follows a confirmation in the synchronization
 * order reads it, which carries the adding thread's writes to the worker that processes
 * the item.
 *
 * @param <T> the item type
 */
final class QueueEntry<T> {

	/** In client-go's dirty set: needs processing. */
	static final int DIRTY = 1;

	/** In client-go's processing set: handed out by get and not done. */
	static final int PROCESSING = 2;

	/** Has a pending delayed add. */
	static final int WAITING = 4;

	/** Left the queue's map; never set together with another bit. */
	static final int REMOVED = 8;

	/** A timestamp that was not taken. */
	static final long NO_TIME = Long.MIN_VALUE;

	private static final VarHandle STATE;

	static {
		try {
			STATE = MethodHandles.lookup().findVarHandle(QueueEntry.class, "state", int.class);
		}
		catch (ReflectiveOperationException ex) {
			throw new ExceptionInInitializerError(ex);
		}
	}

	final T item;

	/** See the class comment. */
	@SuppressWarnings("unused") // written through STATE
	private volatile int state;

	/** When the item was last added (metrics only). */
	long addedAt = NO_TIME;

	/** When its processing started (metrics only). */
	long startedAt = NO_TIME;

	/** Neighbours in the list of items being processed (metrics only). */
	@Nullable QueueEntry<T> previousProcessing;

	@Nullable QueueEntry<T> nextProcessing;

	/** Its pending delayed add, set exactly when {@link #WAITING} is. */
	@Nullable WaitingEntry<T> waiting;

	QueueEntry(T item, int state) {
		this.item = item;
		STATE.setRelease(this, state);
	}

	int state() {
		return this.state;
	}

	/**
	 * Sets the state; under the queue's lock.
	 * @param newState the new state bits
	 * @return the state before
	 */
	int exchange(int newState) {
		return (int) STATE.getAndSet(this, newState);
	}

	/**
	 * Writes the same state back if it is still the one seen; outside the lock.
	 * @param seen the state seen
	 * @return false if the state changed since it was seen
	 */
	boolean confirm(int seen) {
		return STATE.compareAndSet(this, seen, seen);
	}

}
