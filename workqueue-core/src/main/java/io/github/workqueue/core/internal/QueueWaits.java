package io.github.workqueue.core.internal;

import java.util.concurrent.TimeUnit;

/**
 * Who waits on a queue's monitor, and whom each change of the queue wakes: consumers
 * blocked in {@code get}, and a drain waiting for the processing items to be done. It
 * keeps the counts those waits depend on: consumers waiting, items processing, whether a
 * drain is in progress.
 *
 * <p>
 * <b>Rules.</b> Only consumers wait on the monitor, except during a drain. An item queued
 * notifies one consumer, or every waiter during a drain (one notification could choose
 * the drain instead of a consumer). The last processing item done during a drain notifies
 * every waiter, and so does shutdown. A consumer that leaves {@code get} by an interrupt
 * while items are queued passes the notification on with {@link #itemQueued()}, since the
 * one an add sent may have chosen it; a drain receives only notifications to every
 * waiter, so its interrupt loses none.
 *
 * <p>
 * <b>Concurrency.</b> Not thread-safe: every method is called with the queue's lock held,
 * the monitor given to the constructor. Invariant: {@link #processing()} is the number of
 * the queue's entries whose state has {@link QueueEntry#PROCESSING}.
 */
final class QueueWaits {

	private final Object monitor;

	private int waitingConsumers;

	private int processing;

	private boolean draining;

	QueueWaits(Object monitor) {
		this.monitor = monitor;
	}

	/** The number of items being processed. */
	int processing() {
		return this.processing;
	}

	/** An item was taken for processing. */
	void processingStarted() {
		this.processing++;
	}

	/** An item's processing ended; the last one wakes a drain. */
	void processingEnded() {
		if (--this.processing == 0 && this.draining) {
			this.monitor.notifyAll();
		}
	}

	/** An item became ready: wakes one consumer waiting in {@code get}, if any. */
	void itemQueued() {
		if (this.waitingConsumers > 0) {
			if (this.draining) {
				this.monitor.notifyAll();
			}
			else {
				this.monitor.notify();
			}
		}
	}

	/**
	 * Waits, as a consumer, for an item to be queued or the queue to shut down.
	 * @param remainingNanos how long at most, {@link Long#MAX_VALUE} for ever
	 * @return what is left of the time
	 * @throws InterruptedException if interrupted while waiting
	 */
	long awaitItem(long remainingNanos) throws InterruptedException {
		this.waitingConsumers++;
		try {
			return await(remainingNanos);
		}
		finally {
			this.waitingConsumers--;
		}
	}

	/**
	 * Starts a drain, or with {@code false} ends any drain in progress (a plain shutdown
	 * ends the wait of a drain that started before it, as in client-go).
	 * @param drain whether a drain is in progress
	 */
	void draining(boolean drain) {
		this.draining = drain;
	}

	/** Shutdown: wakes every waiter. */
	void wakeAll() {
		this.monitor.notifyAll();
	}

	/**
	 * Waits, as the drain, until nothing is processing, the drain is ended by a plain
	 * shutdown, or the time is up.
	 * @param remainingNanos how long at most, {@link Long#MAX_VALUE} for ever
	 * @return true if nothing is processing
	 * @throws InterruptedException if interrupted while waiting
	 */
	boolean awaitDrained(long remainingNanos) throws InterruptedException {
		long remaining = remainingNanos;
		while (this.draining && this.processing > 0 && remaining > 0) {
			remaining = await(remaining);
		}
		return this.processing == 0;
	}

	private long await(long remainingNanos) throws InterruptedException {
		if (remainingNanos == Long.MAX_VALUE) {
			this.monitor.wait();
			return remainingNanos;
		}
		long start = System.nanoTime();
		TimeUnit.NANOSECONDS.timedWait(this.monitor, remainingNanos);
		return remainingNanos - (System.nanoTime() - start);
	}

}
