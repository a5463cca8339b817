package io.github.workqueue.spring;

import java.time.Duration;
import java.util.List;

import io.github.workqueue.core.DeadLetters;

/**
 * The running workers of one {@link QueueWorker} method. Made and owned by the
 * {@link QueueWorkerRegistry}; not a bean.
 *
 * <p>
 * <b>Concurrency.</b> Thread-safe; the counters are updated by the workers and may be
 * read at any time.
 */
public interface QueueWorkerContainer {

	/**
	 * Returns the queue's name.
	 * @return the name
	 */
	String queueName();

	/**
	 * Returns the worker method, as {@code Class.method(ParameterType)}.
	 * @return the method
	 */
	String method();

	/**
	 * Returns the number of worker threads.
	 * @return the configured worker count
	 */
	int workers();

	/**
	 * Returns the number of worker threads alive now.
	 * @return the live workers
	 */
	int liveWorkers();

	/**
	 * Returns the number of items being processed now.
	 * @return the items in flight
	 */
	int inFlight();

	/**
	 * Returns how long the longest running item has been processing.
	 * @return the age of the oldest item in flight, zero if none
	 */
	Duration longestRunning();

	/**
	 * Lists the items being processed now, the longest running first.
	 * @return each item with how long it has been processing
	 */
	List<Processing> processing();

	/**
	 * Returns where the items its workers gave up are kept: the queue's own store for a
	 * queue that keeps dead letters (Redis, queue-wide), else a store in this process of
	 * the {@value #DEAD_LETTERS_KEPT} newest.
	 * @return the dead letters
	 */
	DeadLetters<?> deadLetters();

	/** How many dead letters the container keeps for a queue that keeps none itself. */
	int DEAD_LETTERS_KEPT = 1000;

	/**
	 * Returns how many worker threads ended unexpectedly (anything but the container's
	 * stop ending them) and were replaced by new threads. Each was logged at ERROR.
	 * @return the replaced workers so far
	 */
	long replacedWorkers();

	/**
	 * Tells whether the workers were started and not stopped.
	 * @return true while running
	 */
	boolean isRunning();

	/**
	 * Stops taking new items; items in flight finish. After it returns no worker method
	 * call starts until {@link #resume()}: an item that a worker took as the pause came
	 * is held, not started, until then (on a shared queue its lease is renewed meanwhile,
	 * as for any item in flight). Items a shared queue leased ahead of the workers are
	 * given back, for other instances to take. Idempotent.
	 */
	void pause();

	/**
	 * Keeps the workers from taking items for a reason, as {@link #pause()} does, until
	 * {@link #release(String)} of the same reason: a {@link #resume()} does not undo it.
	 * For whoever decides when a queue's workers may run (a leader election, a cache that
	 * must be complete first), so that an operator's resume cannot start them early.
	 * Idempotent per reason.
	 * @param reason why, as its holder names it
	 */
	void hold(String reason);

	/**
	 * Ends a {@link #hold(String)}: the workers take items again once nothing else holds
	 * them and they are not paused. Idempotent.
	 * @param reason the reason given to {@code hold}
	 */
	void release(String reason);

	/**
	 * Tells whether something holds the workers ({@link #hold(String)}).
	 * @return true if held for any reason
	 */
	boolean isHeld();

	/**
	 * Waits until no worker method call runs: after {@link #pause()}, until the items in
	 * flight are done.
	 * @param timeout how long to wait at most
	 * @return true if none runs, false if the timeout passed first
	 * @throws InterruptedException if interrupted while waiting
	 */
	boolean awaitIdle(Duration timeout) throws InterruptedException;

	/**
	 * Interrupts every worker method running now. Each interrupted call is a failed
	 * attempt (retried through the rate limiter, as any failure), unless the method
	 * returns normally.
	 */
	void interruptProcessing();

	/**
	 * Takes items again after {@link #pause()}. Idempotent.
	 */
	void resume();

	/**
	 * Tells whether the workers take no items now: paused, or held.
	 * @return true if paused or held
	 */
	boolean isPaused();

	/**
	 * Returns the count of each outcome so far.
	 * @return the counts
	 */
	Outcomes outcomes();

	/**
	 * An item being processed.
	 *
	 * @param item the item
	 * @param age how long it has been processing
	 */
	record Processing(Object item, Duration age) {

	}

	/**
	 * Counts of what happened to processed items.
	 *
	 * @param succeeded items processed without an exception (done or requeued by result)
	 * @param retried failures requeued through the rate limiter
	 * @param givenUp items given up
	 * @param unfinishedAtShutdown items in flight, queued or waiting when shutdown ended
	 */
	record Outcomes(long succeeded, long retried, long givenUp, long unfinishedAtShutdown) {

	}

}
