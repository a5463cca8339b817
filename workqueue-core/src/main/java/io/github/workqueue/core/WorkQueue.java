package io.github.workqueue.core;

import java.time.Duration;
import java.util.Collection;
import java.util.Optional;

import io.github.workqueue.core.internal.AddAllItems;

/**
 * A work queue with client-go's guarantees: FIFO order, deduplication while queued, and
 * at most one worker per item at a time.
 *
 * <p>
 * The queue keeps three pieces of state under one lock: the FIFO of queued items, the
 * <em>dirty</em> set (items that need processing) and the <em>processing</em> set (items
 * handed out by {@link #get()} and not yet {@link #done(Object) done}). Every queued item
 * is dirty and not processing.
 * <ul>
 * <li>Adding an item that is already dirty changes nothing, so rapid adds of one key
 * collapse into one processing.</li>
 * <li>Adding an item that is being processed marks it dirty without queueing it; it is
 * queued again when the worker calls {@code done}, so it is never processed by two
 * workers at once and no add is lost.</li>
 * </ul>
 *
 * <p>
 * <b>Caller contract.</b> Items are non-null values compared by {@code equals} and
 * {@code hashCode}; use small immutable keys. Every item obtained from {@code get} must
 * be passed to {@code done} exactly once, whatever happened while processing it,
 * otherwise the item is never processed again and {@link #shutDownWithDrain()} never
 * returns.
 *
 * <p>
 * <b>Concurrency.</b> Implementations are thread-safe: any number of producers and
 * consumers may call any method concurrently, and every operation takes effect atomically
 * at one point between its call and its return (it is linearizable against the sequential
 * model of a FIFO with a dirty and a processing set).
 *
 * <p>
 * <b>Memory consistency.</b> Actions in a thread before {@code add(x)} (or a delayed or
 * rate-limited add of {@code x}) <i>happen-before</i> the actions of the worker that
 * processes {@code x} in the processing the add caused or joined, from the return of
 * {@code get} on; this holds for an add that was deduplicated too, as it does for
 * client-go's mutex. Actions of a worker before {@code done(x)} happen-before the actions
 * of the worker that processes {@code x} next.
 *
 * @param <T> the item type
 */
public interface WorkQueue<T> {

	/**
	 * Returns a builder for queues of every layer.
	 * @return a new builder with the defaults
	 */
	static WorkQueueBuilder builder() {
		return new WorkQueueBuilder();
	}

	/**
	 * Returns the queue's name, used to label its metrics; may be empty.
	 * @return the name
	 */
	String name();

	/**
	 * Marks the item as needing processing. Ignored (and counted as dropped) once the
	 * queue is shutting down; does nothing if the item is already dirty; if the item is
	 * being processed it is queued again when {@code done} is called for it.
	 * @param item the item, not null
	 */
	void add(T item);

	/**
	 * Takes an item out of the queue: a queued item leaves the queue, every pending
	 * delayed add of it is dropped, and an item being processed is not queued again at
	 * its {@code done} (a re-add meanwhile is cleared; the processing itself goes on to
	 * its end). Counted as dropped with the reason {@code removed} when it removed
	 * something. Atomic, like every other operation: an add after it returns queues the
	 * item again. Not in client-go (its issue 113607 asks for it).
	 * @param item the item, not null
	 * @return whether the item was queued, waiting or due to be queued again at its
	 * {@code done}
	 */
	boolean remove(T item);

	/**
	 * Adds each item as {@link #add(Object)} does, in the collection's iteration order:
	 * each add is atomic on its own, the whole is not (a worker may take the first item
	 * before the last is added). A queue shared through Redis sends the adds together, a
	 * few hundred per round trip, and returns once Redis answered them all, which costs
	 * far less per item than one {@code add} after another; the in-memory queue adds them
	 * one by one.
	 * @param items the items, none null (checked before any is added)
	 * @throws NullPointerException if the collection or one of its items is null
	 */
	default void addAll(Collection<? extends T> items) {
		for (T item : AddAllItems.checked(items)) {
			add(item);
		}
	}

	/**
	 * Takes the next item, blocking while the queue is empty. After shutdown it keeps
	 * returning queued items until none are left.
	 * @return the item, or empty if and only if the queue is shut down and has no queued
	 * item left
	 * @throws InterruptedException if interrupted before an item could be taken (on entry
	 * or while waiting); no item is taken then
	 */
	Optional<T> get() throws InterruptedException;

	/**
	 * Takes the next item, blocking at most the given time (real time) while the queue is
	 * empty.
	 * @param timeout how long to wait at most
	 * @return the item, or empty when the timeout elapsed or the queue is shut down and
	 * drained; {@link #isShuttingDown()} tells the two apart
	 * @throws InterruptedException if interrupted while waiting
	 */
	Optional<T> get(Duration timeout) throws InterruptedException;

	/**
	 * Marks the item as processed. If it was added again while being processed it is
	 * queued now. Calling it for an item that is not being processed changes nothing.
	 * @param item the item returned by {@code get}
	 */
	void done(T item);

	/**
	 * Returns the number of queued items, not counting items being processed or waiting
	 * for a delay. Informational: it may be stale as soon as it returns.
	 * @return the number of queued items
	 */
	int len();

	/**
	 * Stops accepting adds and wakes every thread blocked in {@code get}. Does not wait
	 * for items being processed. Idempotent.
	 */
	void shutDown();

	/**
	 * Like {@link #shutDown()}, then waits until no item is being processed. A concurrent
	 * {@link #shutDown()} releases the wait.
	 * @throws InterruptedException if interrupted while waiting
	 */
	void shutDownWithDrain() throws InterruptedException;

	/**
	 * Like {@link #shutDownWithDrain()}, waiting at most the given time (real time).
	 * @param timeout how long to wait at most
	 * @return {@code true} if no item was being processed when it returned
	 * @throws InterruptedException if interrupted while waiting
	 */
	boolean shutDownWithDrain(Duration timeout) throws InterruptedException;

	/**
	 * Tells whether {@code shutDown} or {@code shutDownWithDrain} was called.
	 * @return {@code true} once the queue is shutting down
	 */
	boolean isShuttingDown();

}
