package io.github.workqueue.core.internal;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;

import org.jspecify.annotations.Nullable;

/**
 * One item's record in a {@link DefaultWorkQueue}: its state bits and its waiting slot;
 * {@link TimedQueueEntry} adds what metrics need.
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
 * <b>Priority.</b> {@link #priority} is the highest priority of the adds since the entry
 * was made; it never decreases while the entry lives (an item done with nothing pending
 * leaves with its entry, and a later add makes a new one).
 *
 * <p>
 * <b>Concurrency.</b> Every field but {@link #state} and {@link #priority} is guarded by
 * the owning queue's lock. {@link #priority} is written under the lock and read without
 * it by a duplicate add: since it only grows, any value such a read returns is at most
 * the current one, so an add that sees a priority at least its own is rightly a
 * duplicate. {@link #state} changes only under that lock, except that a duplicate add
 * outside the lock may {@link #confirm(int)} a dirty state: a compare-and-set to the same
 * value. The take of a dirty item (dirty to processing) is an atomic read-modify-write
 * ({@link #exchange(int)}): a confirmation either comes before it and is read by it, or
 * fails and the add goes to the lock; that carries the adding thread's writes to the
 * worker that processes the item. Other changes are release writes ({@link #set(int)}): a
 * confirmation of the state they leave is read by the item's next take.
 *
 * @param <T> the item type
 */
class QueueEntry<T> {

	/** In client-go's dirty set: needs processing. */
	static final int DIRTY = 1;

	/** In client-go's processing set: handed out by get and not done. */
	static final int PROCESSING = 2;

	/** Has a pending delayed add. */
	static final int WAITING = 4;

	/** Left the queue's map; never set together with another bit. */
	static final int REMOVED = 8;

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

	/**
	 * Its slot in the delaying layer's {@link WaitingHeap} while its delayed add is
	 * pending (exactly when {@link #WAITING} is set), else {@link WaitingHeap#NO_SLOT}.
	 */
	int waitingSlot = WaitingHeap.NO_SLOT;

	/** See the class comment. */
	int priority;

	/** Its place among ready items, in a queue that orders by priority or fairness. */
	@Nullable ReadySlot<T> slot;

	QueueEntry(T item, int state, int priority) {
		this.item = item;
		this.priority = priority;
		STATE.setRelease(this, state);
	}

	int state() {
		return this.state;
	}

	/**
	 * Sets the state with an atomic read-modify-write; for the take of a dirty item.
	 * Under the queue's lock.
	 * @param newState the new state bits
	 */
	void exchange(int newState) {
		STATE.getAndSet(this, newState);
	}

	/**
	 * Sets the state with a release write; for every other change. Under the queue's
	 * lock.
	 * @param newState the new state bits
	 */
	void set(int newState) {
		STATE.setRelease(this, newState);
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
