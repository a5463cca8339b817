package io.github.workqueue.spring.internal;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.TimeUnit;

import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;

import io.github.workqueue.spring.QueueWorkerContainer;
import io.github.workqueue.spring.QueueWorkerContainer.Processing;

/**
 * A container's worker slots, and what is read or done across all of them: the gauges
 * (items processing, the longest running), the wait for their threads at shutdown, and
 * the abandonment's collection of what they hold.
 *
 * <p>
 * <b>Concurrency.</b> Thread-safe: the array is fixed at construction, and every slot's
 * state is read under its own monitor, but {@link WorkerSlot#busySince} (volatile), which
 * the counting gauges read without it.
 */
final class WorkerSlots {

	private static final Log logger = LogFactory.getLog(QueueWorkerContainer.class);

	private final WorkerSlot[] slots;

	WorkerSlots(int workers) {
		this.slots = new WorkerSlot[workers];
		for (int i = 0; i < workers; i++) {
			this.slots[i] = new WorkerSlot();
		}
	}

	/** The slots, one per worker. */
	List<WorkerSlot> all() {
		return List.of(this.slots);
	}

	/** How many slots process an item now. */
	int busy() {
		int busy = 0;
		for (WorkerSlot slot : this.slots) {
			if (slot.busySince != WorkerSlot.IDLE) {
				busy++;
			}
		}
		return busy;
	}

	/** How long the longest running item has run, at the clock time {@code now}. */
	Duration longestRunning(long now) {
		long longest = 0;
		for (WorkerSlot slot : this.slots) {
			long since = slot.busySince;
			if (since != WorkerSlot.IDLE) {
				longest = Math.max(longest, now - since);
			}
		}
		return Duration.ofNanos(longest);
	}

	/** The items processing at the clock time {@code now}, the longest running first. */
	List<Processing> processing(long now) {
		List<Processing> items = new ArrayList<>();
		for (WorkerSlot slot : this.slots) {
			synchronized (slot) {
				long since = slot.busySince;
				if (since != WorkerSlot.IDLE && slot.item != null) {
					items.add(new Processing(slot.item, Duration.ofNanos(now - since)));
				}
			}
		}
		items.sort(Comparator.comparing(Processing::age).reversed());
		return items;
	}

	/**
	 * Interrupts every worker's wait in {@code get} (a pause), under each slot's monitor
	 * so that the interrupt reaches the {@code get} and never a worker method.
	 */
	void interruptTakes() {
		for (WorkerSlot slot : this.slots) {
			synchronized (slot) {
				slot.interruptTake();
			}
		}
	}

	/**
	 * Waits until no slot processes an item, or the deadline.
	 * @param deadlineNanos {@link System#nanoTime()} to give up at
	 * @return whether every slot was idle (each seen so under its monitor)
	 * @throws InterruptedException if interrupted while waiting
	 */
	boolean awaitIdle(long deadlineNanos) throws InterruptedException {
		for (WorkerSlot slot : this.slots) {
			synchronized (slot) {
				while (slot.item != null) {
					long left = deadlineNanos - System.nanoTime();
					if (left <= 0) {
						return false;
					}
					TimeUnit.NANOSECONDS.timedWait(slot, left);
				}
			}
		}
		return true;
	}

	/** Interrupts every worker method running now, under each slot's monitor. */
	void interruptProcessing() {
		for (WorkerSlot slot : this.slots) {
			synchronized (slot) {
				slot.interruptProcessing();
			}
		}
	}

	/** Waits until every worker thread, replacements included, ended or the deadline. */
	void join(long deadlineNanos) throws InterruptedException {
		for (WorkerSlot slot : this.slots) {
			Thread joined = null;
			while (System.nanoTime() - deadlineNanos < 0) {
				Thread current;
				synchronized (slot) {
					current = slot.thread;
				}
				if (current == null || current == joined) {
					break;
				}
				current.join(Math.max(1, (deadlineNanos - System.nanoTime()) / 1_000_000));
				joined = current;
			}
		}
	}

	/**
	 * The abandonment's pass over the slots, once the container abandoned its items: slot
	 * by slot, under its monitor, waits for a worker still in {@code get} to come out
	 * (interrupting the wait; it then sees that the container gave up) and reads the
	 * slot's item.
	 * @param queueName for the log
	 * @param waitUntil {@link System#nanoTime()} to stop waiting for a worker at
	 * @param inFlight receives the items the workers hold
	 * @param running receives the threads that process them
	 */
	void collect(String queueName, long waitUntil, List<Object> inFlight, List<Thread> running) {
		for (WorkerSlot slot : this.slots) {
			synchronized (slot) {
				awaitTakeEnded(queueName, slot, waitUntil);
				if (slot.item != null) {
					inFlight.add(slot.item);
					if (slot.thread != null) {
						running.add(slot.thread);
					}
				}
			}
		}
	}

	/**
	 * Waits, holding the slot's monitor, until its worker is out of {@code get},
	 * interrupting the wait there.
	 */
	private static void awaitTakeEnded(String queueName, WorkerSlot slot, long waitUntil) {
		boolean interrupted = false;
		while (slot.taking) {
			slot.interruptTake();
			long remaining = waitUntil - System.nanoTime();
			if (remaining <= 0) {
				logger.error("Queue '" + queueName + "': worker " + slot.thread
						+ " did not come out of the queue's get; an item it takes now is not in the shutdown report");
				break;
			}
			try {
				TimeUnit.NANOSECONDS.timedWait(slot, remaining);
			}
			catch (InterruptedException ex) {
				interrupted = true;
			}
		}
		if (interrupted) {
			Thread.currentThread().interrupt();
		}
	}

}
