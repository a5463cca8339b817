package io.github.workqueue.spring.internal;

import org.jspecify.annotations.Nullable;

/**
 * One worker of a container, whichever thread runs it now: where it stands in taking and
 * processing an item. A replacement thread takes over the slot of a thread that died.
 *
 * <p>
 * <b>Concurrency.</b> Every field is guarded by the slot's own monitor, which is also the
 * hand-over point between the worker and the container's give-up at shutdown (see
 * {@link DefaultQueueWorkerContainer}): a worker moves from {@link #taking} to
 * {@link #item} (or gives the item up) under it, and the container waits on it for
 * {@code taking} to end. Whoever clears {@code taking} notifies the monitor.
 * {@link #busySince} is also read without the lock, for the gauges.
 */
final class WorkerSlot {

	/** {@link #busySince} when no item is processing. */
	static final long IDLE = Long.MIN_VALUE;

	/** The thread that runs this worker now. */
	@Nullable Thread thread;

	/** Whether the worker is in the queue's {@code get}. */
	boolean taking;

	/**
	 * Whether the container interrupted the worker's {@code get} (to pause or stop it):
	 * such an interrupt is the container's, never the worker method's.
	 */
	boolean interruptedByContainer;

	/**
	 * The item being processed, from the hand-over before the method call until it is
	 * done. Whoever clears it notifies the monitor.
	 */
	@Nullable Object item;

	/**
	 * Whether the container interrupted the method processing {@link #item}: cleared with
	 * the item, with the interrupt if it is still pending, so that it reaches no later
	 * {@code get}.
	 */
	boolean processingInterrupted;

	/** The clock time the current item started, or {@link #IDLE}. */
	volatile long busySince = IDLE;

	/**
	 * Interrupts the worker's wait in {@code get}, if it is waiting there, marking the
	 * interrupt as the container's. Caller holds the monitor.
	 */
	void interruptTake() {
		if (this.taking && this.thread != null && !this.interruptedByContainer) {
			this.interruptedByContainer = true;
			this.thread.interrupt();
		}
	}

	/**
	 * Interrupts the method processing the slot's item, if one is. Caller holds the
	 * monitor.
	 */
	void interruptProcessing() {
		if (this.item != null && !this.taking && this.thread != null && !this.processingInterrupted) {
			this.processingInterrupted = true;
			this.thread.interrupt();
		}
	}

	/**
	 * Marks the item processed, clearing an interrupt of {@link #interruptProcessing}
	 * that the method did not consume, and wakes whoever waits for the slot to be idle.
	 * Called on the worker's thread; caller holds the monitor.
	 */
	void endProcessing() {
		if (this.processingInterrupted) {
			this.processingInterrupted = false;
			Thread.interrupted();
		}
		notifyAll();
	}

	/**
	 * Marks the worker out of {@code get} and wakes a give-up waiting for that. An
	 * interrupt of the container's that came after the item was taken, if one was, is
	 * cleared: it must not reach the worker method. Caller holds the monitor.
	 * @return whether the container interrupted the wait
	 */
	boolean endTake() {
		this.taking = false;
		boolean byContainer = this.interruptedByContainer;
		this.interruptedByContainer = false;
		if (byContainer) {
			Thread.interrupted();
		}
		notifyAll();
		return byContainer;
	}

}
