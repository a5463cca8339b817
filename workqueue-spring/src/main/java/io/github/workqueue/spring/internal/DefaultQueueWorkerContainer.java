package io.github.workqueue.spring.internal;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.LongAdder;

import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.jspecify.annotations.Nullable;

import org.springframework.context.ApplicationEventPublisher;

import io.github.workqueue.spring.ItemsUnfinishedAtShutdownEvent;
import io.github.workqueue.spring.QueueWorkerContainer;
import io.github.workqueue.spring.WorkContext;
import io.github.workqueue.spring.WorkResult;
import io.github.workqueue.core.DeadLetters;
import io.github.workqueue.core.Clock;
import io.github.workqueue.core.DeferredDone;
import io.github.workqueue.core.LeasingAhead;
import io.github.workqueue.core.ItemLease;
import io.github.workqueue.core.LeasedQueue;
import io.github.workqueue.core.PrioritizedItem;
import io.github.workqueue.core.RateLimitingQueue;

/**
 * Runs the worker threads of one queue, their pause and their shutdown: each worker takes
 * an item, calls the worker method, hands the result or the failure to the
 * {@link OutcomeHandler} (which forgets, requeues, retries or gives the item up), and
 * always calls {@code done}. What a shutdown leaves unfinished goes to the
 * {@link ShutdownReport}.
 *
 * <p>
 * <b>Rules.</b> Only the container's stop or pause ends a worker's wait: an interrupt
 * that reaches a worker from elsewhere while it waits for an item is ignored, and one
 * that a worker method throws or leaves behind is a failed attempt like any other
 * exception. A worker thread that ends for any other reason (an {@code Error} in
 * {@code done}, say) is logged at ERROR, counted, and replaced by a new thread in the
 * same slot. Once the container gives up at shutdown, no method call starts, and every
 * item a worker took is either processed to the end or named in the
 * {@link ItemsUnfinishedAtShutdownEvent}.
 *
 * <p>
 * <b>Concurrency.</b> Thread-safe. Pause and stop are the {@link PauseGate}'s. Each
 * worker owns a {@link WorkerSlot} (of {@link WorkerSlots}); the hand-over of an item
 * between a worker and the abandonment happens under that slot's monitor: a worker enters
 * {@code get} only if the container has not abandoned its items, and stays in its taking
 * phase until the last step before the method call, where it either records the item as
 * its {@link WorkerSlot#item} and calls the method (the container had not abandoned them)
 * or hands the item to {@link #abandoned} (it had), in one step. The abandonment at
 * shutdown sets {@link #abandonedAtShutdown}, then, slot by slot under the slot's
 * monitor, waits for a worker still taking (interrupting its wait in {@code get}) and
 * reads the slot's item: so every item taken before or during the abandonment is seen by
 * it, as in flight or as abandoned, and no worker takes another or calls the method after
 * it. A slot's item is cleared only after {@code done}, so an item that {@code done}
 * queues again is seen in the slot or in the queue, which the abandonment drains last.
 * The counters are atomics updated by the workers.
 */
final class DefaultQueueWorkerContainer implements QueueWorkerContainer {

	private static final Log logger = LogFactory.getLog(QueueWorkerContainer.class);

	/** How long the abandonment waits for a worker to come out of {@code get}. */
	private static final long TAKE_EXIT_WAIT_NANOS = TimeUnit.SECONDS.toNanos(10);

	/**
	 * What {@link #nextItem} returns when the worker should look at pause and stop again.
	 */
	private static final Object LOOK_AGAIN = new Object();

	/** What {@link #nextItem} returns when the worker should end. */
	private static final Object EXIT = new Object();

	private final RateLimitingQueue<Object> queue;

	private final QueueWorkerMethod method;

	private final int workers;

	private final Clock clock;

	private final ThreadFactory threadFactory;

	private final ApplicationEventPublisher events;

	private final WorkObserver observer;

	private final PauseGate gate = new PauseGate();

	private volatile boolean running;

	private final AtomicInteger liveWorkers = new AtomicInteger();

	/** One per worker. */
	private final WorkerSlots slots;

	/** What becomes of an item after the method, and the counts of each outcome. */
	private final OutcomeHandler outcomes;

	private final LongAdder replacedWorkers = new LongAdder();

	/**
	 * Set once, when shutdown gives up waiting: no worker method call starts after it.
	 */
	private volatile boolean abandonedAtShutdown;

	private volatile long unfinishedAtShutdown;

	private volatile List<Object> waitingAtShutdown = List.of();

	/** Items that workers took after the container gave up, and never processed. */
	private final Queue<Object> abandoned = new ConcurrentLinkedQueue<>();

	DefaultQueueWorkerContainer(RateLimitingQueue<Object> queue, QueueWorkerMethod method, WorkerPolicy policy,
			int workers, Clock clock, ThreadFactory threadFactory, ApplicationEventPublisher events,
			WorkObserver observer) {
		this.queue = queue;
		this.method = method;
		this.workers = workers;
		this.clock = clock;
		this.threadFactory = threadFactory;
		this.events = events;
		this.observer = observer;
		this.outcomes = new OutcomeHandler(queue, policy, events, DEAD_LETTERS_KEPT);
		this.slots = new WorkerSlots(workers);
	}

	synchronized void start() {
		if (this.running || this.gate.isStopping()) {
			return;
		}
		this.running = true;
		this.liveWorkers.set(this.workers);
		for (WorkerSlot slot : this.slots.all()) {
			startWorker(slot, null);
		}
	}

	/**
	 * Starts a thread for a slot.
	 * @param slot the slot
	 * @param name the thread's name, or null for the thread factory's
	 */
	private void startWorker(WorkerSlot slot, @Nullable String name) {
		Thread thread = this.threadFactory.newThread(() -> runWorker(slot));
		if (name != null) {
			thread.setName(name);
		}
		synchronized (slot) {
			slot.thread = thread;
		}
		thread.start();
	}

	/**
	 * Starts shutting down: the queue stops accepting items and drops the waiting ones,
	 * and workers finish what is queued. Does not wait.
	 */
	void initiateShutdown() {
		this.gate.stop();
		this.queue.shutDown();
		this.waitingAtShutdown = this.queue.discardedAtShutdown();
	}

	/**
	 * Waits for the workers until the deadline, then gives up: counts, logs and publishes
	 * what is left, and interrupts the worker methods still running.
	 * @param deadlineNanos {@link System#nanoTime()} to give up at
	 * @throws InterruptedException if interrupted while waiting
	 */
	void awaitShutdown(long deadlineNanos) throws InterruptedException {
		this.queue.shutDownWithDrain(Duration.ofNanos(Math.max(0, deadlineNanos - System.nanoTime())));
		this.slots.join(deadlineNanos);
		abandonUnfinished();
		this.running = false;
	}

	/**
	 * From here on no worker method call starts. Names every item taken and not finished,
	 * with what is still queued and what was waiting, then interrupts the methods still
	 * running.
	 */
	private void abandonUnfinished() {
		this.abandonedAtShutdown = true;
		List<Object> inFlight = new ArrayList<>();
		List<Thread> running = new ArrayList<>();
		this.slots.collect(queueName(), System.nanoTime() + TAKE_EXIT_WAIT_NANOS, inFlight, running);
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
		this.unfinishedAtShutdown = ShutdownReport.report(queueName(), inFlight, new ArrayList<>(this.abandoned),
				this.waitingAtShutdown, this.events);
		running.forEach(Thread::interrupt);
	}

	private void runWorker(WorkerSlot slot) {
		boolean replacement = false;
		try {
			while (awaitUnpaused()) {
				Object next = nextItem(slot);
				if (next == EXIT) {
					return;
				}
				if (next != LOOK_AGAIN) {
					PrioritizedItem<?> taken = (PrioritizedItem<?>) next;
					process(slot, taken.item(), taken.priority());
				}
			}
		}
		catch (Throwable ex) {
			replacement = !this.abandonedAtShutdown;
			if (replacement) {
				this.replacedWorkers.increment();
			}
			logger.error("Queue '" + queueName() + "': worker thread '" + Thread.currentThread().getName()
					+ "' ended unexpectedly" + (replacement ? "; a new thread replaces it" : ""), ex);
		}
		finally {
			if (!replacement || !replace(slot)) {
				this.liveWorkers.decrementAndGet();
			}
		}
	}

	/** Starts a thread in the slot of one that died; false if none could be started. */
	private boolean replace(WorkerSlot slot) {
		try {
			startWorker(slot, Thread.currentThread().getName());
			return true;
		}
		catch (Throwable ex) {
			logger.error("Queue '" + queueName() + "': could not start a worker thread to replace '"
					+ Thread.currentThread().getName() + "'", ex);
			return false;
		}
	}

	/**
	 * Takes the next item. When it returns one, the slot is still in its taking phase:
	 * the hand-over happens in {@link #begin}, right before the method call.
	 * @param slot the worker's slot
	 * @return the item with its priority, {@link #LOOK_AGAIN} if the worker should look
	 * at pause and stop again, or {@link #EXIT}
	 */
	private Object nextItem(WorkerSlot slot) {
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
				logger.warn("Queue '" + queueName() + "': worker thread '" + Thread.currentThread().getName()
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
	 * phase and, unless the container gave up, records the item as the slot's.
	 * @return false if the container gave up: the item is abandoned, never processed
	 */
	private boolean begin(WorkerSlot slot, Object item) {
		synchronized (slot) {
			slot.endTake();
			if (this.abandonedAtShutdown) {
				this.abandoned.add(item);
				return false;
			}
			slot.item = item;
			slot.busySince = this.clock.nanoTime();
			return true;
		}
	}

	/**
	 * Waits while paused; false when the worker should exit (paused and stopping, or the
	 * container gave up).
	 */
	private boolean awaitUnpaused() {
		return this.gate.awaitOpen() && !this.abandonedAtShutdown;
	}

	private void process(WorkerSlot slot, Object item, int priority) {
		try {
			handle(slot, item, priority);
		}
		catch (Throwable ex) {
			// Also what a limiter bean or an event listener throws, checked or not: the
			// worker must survive it.
			logger.error("Queue '" + queueName() + "': handling the outcome of item '" + item + "' failed", ex);
		}
		finally {
			try {
				done(item);
			}
			finally {
				// After done: an item added again while it was processing is queued
				// again by done, so the abandonment sees it either here or in the queue.
				synchronized (slot) {
					if (slot.taking) {
						// The method was never called (an item of the wrong type, say).
						slot.endTake();
					}
					slot.item = null;
					slot.busySince = WorkerSlot.IDLE;
				}
			}
		}
	}

	private void handle(WorkerSlot slot, Object item, int priority) {
		if (!this.method.accepts(item)) {
			this.outcomes.wrongType(item, this.method);
			return;
		}
		WorkResult result;
		try {
			result = this.observer.observe(queueName(), item, () -> {
				if (!begin(slot, item)) {
					throw AbandonedAtShutdown.INSTANCE;
				}
				return this.method.invoke(item, () -> context(item, priority));
			});
			if (Thread.interrupted() && !this.abandonedAtShutdown) {
				throw new InterruptedException("the worker method returned with its thread's interrupt status set");
			}
		}
		catch (Throwable failure) {
			if (failure == AbandonedAtShutdown.INSTANCE) {
				return;
			}
			// The worker goes on: an interrupt ends its wait only when the container
			// stops.
			boolean interrupted = Thread.interrupted() || failure instanceof InterruptedException;
			if (this.abandonedAtShutdown && interrupted) {
				logger.info("Queue '" + queueName() + "': the method processing item '" + item
						+ "' ended on the shutdown's interrupt; the item is named in the shutdown report");
				return;
			}
			this.outcomes.failed(item, failure);
			return;
		}
		this.outcomes.returned(item, result);
	}

	/**
	 * Ends the item's processing; on a queue that offers it, without waiting for the
	 * backend's answer (group commit: the worker's next take shares the round trip),
	 * whose outcome the queue logs and counts.
	 */
	@SuppressWarnings("unchecked")
	private void done(Object item) {
		if (this.queue instanceof DeferredDone<?> deferred) {
			((DeferredDone<Object>) deferred).doneWithoutWaiting(item);
		}
		else {
			this.queue.done(item);
		}
	}

	/** The context of a call, made on the worker's thread (a lease is the thread's). */
	@SuppressWarnings("unchecked")
	private WorkContext context(Object item, int priority) {
		Optional<ItemLease> lease = (this.queue instanceof LeasedQueue<?> leased)
				? ((LeasedQueue<Object>) leased).lease(item).map(ItemLease.class::cast) : Optional.empty();
		return new WorkContext(queueName(), this.outcomes.attempt(item), priority, this.queue.fairnessKeysOf(item),
				lease);
	}

	@Override
	public DeadLetters<?> deadLetters() {
		return this.outcomes.deadLetters();
	}

	@Override
	public String queueName() {
		return this.queue.name();
	}

	@Override
	public String method() {
		return this.method.toString();
	}

	@Override
	public int workers() {
		return this.workers;
	}

	@Override
	public int liveWorkers() {
		return this.running ? this.liveWorkers.get() : 0;
	}

	@Override
	public int inFlight() {
		return this.slots.busy();
	}

	@Override
	public Duration longestRunning() {
		return this.slots.longestRunning(this.clock.nanoTime());
	}

	@Override
	public List<Processing> processing() {
		return this.slots.processing(this.clock.nanoTime());
	}

	@Override
	public long replacedWorkers() {
		return this.replacedWorkers.sum();
	}

	@Override
	public boolean isRunning() {
		return this.running;
	}

	@Override
	public void pause() {
		this.gate.pause();
		// A worker blocked in get would take the next item: interrupt the wait.
		this.slots.interruptTakes();
		// Items leased ahead of the workers go back, for other instances to take.
		if (this.queue instanceof LeasingAhead ahead) {
			ahead.giveBackLeasedAhead();
		}
	}

	@Override
	public void resume() {
		this.gate.resume();
	}

	@Override
	public boolean isPaused() {
		return this.gate.isPaused();
	}

	@Override
	public Outcomes outcomes() {
		return new Outcomes(this.outcomes.succeeded(), this.outcomes.retried(), this.outcomes.givenUp(),
				this.unfinishedAtShutdown);
	}

	@Override
	public String toString() {
		return "QueueWorkerContainer[" + queueName() + ", " + this.method + ", workers=" + this.workers + "]";
	}

	/**
	 * Ends the observed call of an item the worker took after the container gave up: the
	 * method is not called and the item is named in the shutdown report.
	 */
	private static final class AbandonedAtShutdown extends RuntimeException {

		private static final long serialVersionUID = 1L;

		static final AbandonedAtShutdown INSTANCE = new AbandonedAtShutdown();

		private AbandonedAtShutdown() {
			super("the container gave up at shutdown before the method was called", null, false, false);
		}

	}

}
