package io.github.workqueue.spring.internal;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.TimeUnit;

import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;

import io.github.workqueue.core.Clock;
import io.github.workqueue.core.PrioritizedItem;
import io.github.workqueue.core.RateLimitingQueue;
import io.github.workqueue.spring.QueueWorkerContainer;

/**
 * The hand-over of items between a container's workers and its abandonment at shutdown: a
 * worker takes an item from the queue and makes it its slot's, unless the container gave
 * up, in which case the item is abandoned and named in the shutdown report.
 *
 * <p>
 * <b>Concurrency.</b> Thread-safe. The hand-over happens under the worker's
 * {@link WorkerSlot} monitor: a worker enters {@code get} only if the container has not
 * abandoned its items, and stays in its taking phase until the last step before the
 * method call ({@link #begin}), where it either records the item as its
 * {@link WorkerSlot#item} (the container had not given up) or adds the item to the
 * abandoned ones (it had), in one step. {@link #abandon} sets
 * {@link #abandonedAtShutdown} first, then, slot by slot under the slot's monitor, waits
 * for a worker still taking (interrupting its wait in {@code get}) and reads the slot's
 * item: so every item taken before or during the abandonment is seen by it, in flight or
 * abandoned, and no worker takes another or calls the method after it. A slot's item is
 * cleared only after {@code done} ({@link #finished}), so an item that {@code done}
 * queues again is seen in the slot or in the queue, which the abandonment drains last.
 */
final class ItemHandOver {

	private static final Log logger = LogFactory.getLog(QueueWorkerContainer.class);

	/** How long the abandonment waits for a worker to come out of {@code get}. */
	private static final long TAKE_EXIT_WAIT_NANOS = TimeUnit.SECONDS.toNanos(10);

	/** What {@link #next} returns when the worker should look at pause and stop again. */
	static final Object LOOK_AGAIN = new Object();

	/** What {@link #next} returns when the worker should end. */
	static final Object EXIT = new Object();

	private final RateLimitingQueue<Object> queue;

	private final PauseGate gate;

	private final WorkerSlots slots;

	private final Clock clock;

	/**
	 * Set once, when shutdown gives up waiting: no worker method call starts after it.
	 */
	private volatile boolean abandonedAtShutdown;

	/** Items that workers took after the container gave up, and never processed. */
	private final Queue<Object> abandoned = new ConcurrentLinkedQueue<>();

	ItemHandOver(RateLimitingQueue<Object> queue, PauseGate gate, WorkerSlots slots, Clock clock) {
		this.queue = queue;
		this.gate = gate;
		this.slots = slots;
		this.clock = clock;
	}

	/** Whether the container gave up at shutdown. */
	boolean abandonedAtShutdown() {
		return this.abandonedAtShutdown;
	}

	/**
	 * Takes the next item. When it returns one, the slot is still in its taking phase:
	 * the hand-over happens in {@link #begin}, right before the method call.
	 * @param slot the worker's slot
	 * @return the item with its priority, {@link #LOOK_AGAIN} if the worker should look
	 * at pause and stop again, or {@link #EXIT}
	 */
	Object next(WorkerSlot slot) {
		synchronized (slot) {
			if (this.abandonedAtShutdown) {
				return EXIT;
			}
			if (this.gate.isPaused()) {
				return LOOK_AGAIN;
			}
			slot.taking = true;
		}
		Optional<PrioritizedItem<Object>> taken = null;
		try {
			taken = this.queue.getWithPriority();
		}
		catch (InterruptedException ex) {
			// The container's interrupts end the wait; others are ignored (below).
		}
		catch (Throwable ex) {
			endTake(slot);
			throw ex;
		}
		if (taken != null && taken.isPresent()) {
			return taken.get();
		}
		boolean byContainer = endTake(slot);
		if (taken == null) {
			if (!byContainer) {
				logger.warn("Queue '" + this.queue.name() + "': worker thread '" + Thread.currentThread().getName()
						+ "' was interrupted while waiting for an item; only the container's stop or pause end a "
						+ "worker's wait, so it goes on");
			}
			return LOOK_AGAIN;
		}
		return EXIT;
	}

	private static boolean endTake(WorkerSlot slot) {
		synchronized (slot) {
			return slot.endTake();
		}
	}

	/**
	 * The hand-over, as the last step before the method call: ends the slot's taking
	 * phase and, unless the container gave up, records the item as the slot's. An item
	 * taken as a pause came (the pause interrupts a {@code get} that may already have
	 * returned it) is held in the taking phase, not started, until the pause ends: after
	 * {@code pause} returns no method call starts. Stopping while paused abandons it.
	 * @return false if the container gave up: the item is abandoned, never processed
	 */
	boolean begin(WorkerSlot slot, Object item) {
		while (true) {
			synchronized (slot) {
				if (this.abandonedAtShutdown || (this.gate.isPaused() && this.gate.isStopping())) {
					slot.endTake();
					this.abandoned.add(item);
					return false;
				}
				if (!this.gate.isPaused()) {
					slot.endTake();
					slot.item = item;
					slot.busySince = this.clock.nanoTime();
					return true;
				}
			}
			// Paused, holding the item; a pause's interrupt of the take stays pending
			// until endTake clears it.
			this.gate.awaitOpen();
		}
	}

	/**
	 * Clears the slot after {@code done}: an item added again while it was processing is
	 * queued again by {@code done}, so the abandonment sees it either in the slot or in
	 * the queue.
	 */
	void finished(WorkerSlot slot) {
		synchronized (slot) {
			if (slot.taking) {
				// The method was never called (an item of the wrong type, say).
				slot.endTake();
			}
			slot.item = null;
			slot.busySince = WorkerSlot.IDLE;
			slot.endProcessing();
		}
	}

	/**
	 * From here on no worker method call starts. Collects every item taken and not
	 * finished, and drains what is still queued.
	 * @return what the abandonment found; the caller reports it and interrupts the
	 * threads
	 */
	Abandonment abandon() {
		this.abandonedAtShutdown = true;
		List<Object> inFlight = new ArrayList<>();
		List<Thread> running = new ArrayList<>();
		this.slots.collect(this.queue.name(), System.nanoTime() + TAKE_EXIT_WAIT_NANOS, inFlight, running);
		Optional<Object> next;
		try {
			while ((next = this.queue.get(Duration.ZERO)).isPresent()) {
				this.abandoned.add(next.get());
				this.queue.done(next.get());
			}
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
		}
		return new Abandonment(inFlight, new ArrayList<>(this.abandoned), running);
	}

	/**
	 * What the abandonment found.
	 *
	 * @param inFlight items whose method call was running
	 * @param abandoned items taken or queued and never processed
	 * @param running the threads of the calls still running
	 */
	record Abandonment(List<Object> inFlight, List<Object> abandoned, List<Thread> running) {
	}

}
