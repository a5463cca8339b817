package io.github.workqueue.spring.internal;

import java.time.Duration;
import java.util.List;
import java.util.Queue;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.LongAdder;

import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.jspecify.annotations.Nullable;

import org.springframework.context.ApplicationEventPublisher;

import io.github.workqueue.spring.ItemsUnfinishedAtShutdownEvent;
import io.github.workqueue.spring.QueueWorkerContainer;
import io.github.workqueue.core.DeadLetters;
import io.github.workqueue.core.Clock;
import io.github.workqueue.core.LeasingAhead;
import io.github.workqueue.core.PrioritizedItem;
import io.github.workqueue.core.RateLimitingQueue;

/**
 * Runs the worker threads of one queue, their pause and their shutdown: each worker takes
 * an item and hands it to the {@link ItemProcessor}, which calls the worker method, hands
 * the result or the failure to the {@link OutcomeHandler} (which forgets, requeues,
 * retries or gives the item up), and always calls {@code done}. What a shutdown leaves
 * unfinished goes to the {@link ShutdownReport}.
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
 * between a worker and the abandonment at shutdown is the {@link ItemHandOver}'s. The
 * counters are atomics updated by the workers.
 */
final class DefaultQueueWorkerContainer implements QueueWorkerContainer {

	private static final Log logger = LogFactory.getLog(QueueWorkerContainer.class);

	private final RateLimitingQueue<Object> queue;

	private final QueueWorkerMethod method;

	private final int workers;

	private final Clock clock;

	private final ThreadFactory threadFactory;

	private final ApplicationEventPublisher events;

	private final PauseGate gate = new PauseGate(this::reportPause);

	private volatile boolean running;

	private final AtomicInteger liveWorkers = new AtomicInteger();

	/** One per worker. */
	private final WorkerSlots slots;

	/** What becomes of an item after the method, and the counts of each outcome. */
	private final OutcomeHandler outcomes;

	private final LongAdder replacedWorkers = new LongAdder();

	/** Taking items, and giving up on them at shutdown. */
	private final ItemHandOver handOver;

	/** Runs each taken item through the method, its outcome and its done. */
	private final ItemProcessor processor;

	private volatile long unfinishedAtShutdown;

	private volatile List<Object> waitingAtShutdown = List.of();

	DefaultQueueWorkerContainer(RateLimitingQueue<Object> queue, QueueWorkerMethod method, WorkerPolicy policy,
			int workers, Clock clock, ThreadFactory threadFactory, ApplicationEventPublisher events,
			WorkObserver observer, ItemListeners listeners) {
		this.queue = queue;
		this.method = method;
		this.workers = workers;
		this.clock = clock;
		this.threadFactory = threadFactory;
		this.events = events;
		this.outcomes = new OutcomeHandler(queue, policy, events, DEAD_LETTERS_KEPT);
		this.slots = new WorkerSlots(workers);
		this.handOver = new ItemHandOver(queue, this.gate, this.slots, clock);
		this.processor = new ItemProcessor(queue, method, observer, listeners, this.outcomes, this.handOver);
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
		ItemHandOver.Abandonment found = this.handOver.abandon();
		this.unfinishedAtShutdown = ShutdownReport.report(queueName(), found.inFlight(), found.abandoned(),
				this.waitingAtShutdown, this.events);
		found.running().forEach(Thread::interrupt);
	}

	private void runWorker(WorkerSlot slot) {
		boolean replacement = false;
		try {
			while (awaitUnpaused()) {
				Object next = this.handOver.next(slot);
				if (next == ItemHandOver.EXIT) {
					return;
				}
				if (next != ItemHandOver.LOOK_AGAIN) {
					PrioritizedItem<?> taken = (PrioritizedItem<?>) next;
					this.processor.process(slot, taken.item(), taken.priority());
				}
			}
		}
		catch (Throwable ex) {
			replacement = !this.handOver.abandonedAtShutdown();
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
	 * Waits while paused; false when the worker should exit (paused and stopping, or the
	 * container gave up).
	 */
	private boolean awaitUnpaused() {
		return this.gate.awaitOpen() && !this.handOver.abandonedAtShutdown();
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
		stopTaking();
	}

	@Override
	public void hold(String reason) {
		this.gate.hold(reason);
		stopTaking();
	}

	@Override
	public void release(String reason) {
		this.gate.release(reason);
	}

	@Override
	public boolean isHeld() {
		return this.gate.isHeld();
	}

	/** After the gate closed: takes in progress end, items leased ahead go back. */
	private void stopTaking() {
		// A worker blocked in get would take the next item: interrupt the wait.
		this.slots.interruptTakes();
		// Items leased ahead of the workers go back, for other instances to take.
		if (this.queue instanceof LeasingAhead ahead) {
			ahead.giveBackLeasedAhead();
		}
	}

	@Override
	public boolean awaitIdle(Duration timeout) throws InterruptedException {
		return this.slots.awaitIdle(System.nanoTime() + timeout.toNanos());
	}

	@Override
	public void interruptProcessing() {
		this.slots.interruptProcessing();
	}

	@Override
	public void resume() {
		this.gate.resume();
	}

	/**
	 * Tells a queue shared with other instances whether the workers take items now:
	 * called by the gate under its lock at each change, so the last call is the gate's
	 * state.
	 */
	private void reportPause(boolean closed) {
		if (this.queue instanceof LeasingAhead ahead) {
			ahead.workersPaused(closed);
		}
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

}
