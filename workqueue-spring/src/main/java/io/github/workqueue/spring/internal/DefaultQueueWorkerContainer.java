package io.github.workqueue.spring.internal;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Queue;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLongArray;
import java.util.concurrent.atomic.AtomicReferenceArray;
import java.util.concurrent.atomic.LongAdder;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;

import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.jspecify.annotations.Nullable;

import org.springframework.context.ApplicationEventPublisher;

import io.github.workqueue.spring.GiveUpReason;
import io.github.workqueue.spring.ItemGivenUpEvent;
import io.github.workqueue.spring.ItemsUnfinishedAtShutdownEvent;
import io.github.workqueue.spring.QueueWorkerContainer;
import io.github.workqueue.spring.WorkResult;
import io.github.workqueue.core.Clock;
import io.github.workqueue.core.RateLimitingQueue;

/**
 * Runs the worker threads of one queue: each takes an item, calls the worker method, then
 * forgets, requeues or gives the item up, and always calls {@code done}.
 *
 * <p>
 * <b>Concurrency.</b> Thread-safe. {@link #paused} and {@link #stopping} are written
 * under {@link #pauseLock} and read anywhere; the counters are atomics updated by the
 * workers. Each worker owns one slot of {@link #busySince}: the clock time its current
 * item started, or {@link #IDLE}.
 */
final class DefaultQueueWorkerContainer implements QueueWorkerContainer {

	private static final Log logger = LogFactory.getLog(QueueWorkerContainer.class);

	private static final long IDLE = Long.MIN_VALUE;

	/** How many items of each kind a shutdown log line names. */
	private static final int LOGGED_ITEMS = 20;

	private final RateLimitingQueue<Object> queue;

	private final QueueWorkerMethod method;

	private final WorkerPolicy policy;

	private final int workers;

	private final Clock clock;

	private final ThreadFactory threadFactory;

	private final ApplicationEventPublisher events;

	private final WorkObserver observer;

	private final ReentrantLock pauseLock = new ReentrantLock();

	private final Condition unpaused = this.pauseLock.newCondition();

	/** Written under {@code pauseLock}. */
	private volatile boolean paused;

	/** Written under {@code pauseLock}. */
	private volatile boolean stopping;

	private volatile boolean running;

	private final List<Thread> threads = new ArrayList<>();

	private final AtomicInteger liveWorkers = new AtomicInteger();

	private final AtomicLongArray busySince;

	/** One per worker thread, by slot. */
	private final WorkerSlot[] slots;

	private final LongAdder succeeded = new LongAdder();

	private final LongAdder retried = new LongAdder();

	private final LongAdder givenUp = new LongAdder();

	/**
	 * Failed attempts per item since its last success: what {@code max-retries} counts. A
	 * requeue asked for by a {@link WorkResult} is not a failure.
	 */
	private final ConcurrentHashMap<Object, Integer> failures = new ConcurrentHashMap<>();

	/** Set once shutdown gave up waiting: no worker method call starts after it. */
	private volatile boolean gaveUp;

	private volatile long unfinishedAtShutdown;

	private volatile List<Object> waitingAtShutdown = List.of();

	/** Items that workers took after shutdown gave up, or that the report drained. */
	private final Queue<Object> abandoned = new ConcurrentLinkedQueue<>();

	/** The item each worker is processing, by slot. */
	private final AtomicReferenceArray<Object> inFlightItems;

	DefaultQueueWorkerContainer(RateLimitingQueue<Object> queue, QueueWorkerMethod method, WorkerPolicy policy,
			int workers, Clock clock, ThreadFactory threadFactory, ApplicationEventPublisher events,
			WorkObserver observer) {
		this.queue = queue;
		this.method = method;
		this.policy = policy;
		this.workers = workers;
		this.clock = clock;
		this.threadFactory = threadFactory;
		this.events = events;
		this.observer = observer;
		this.busySince = new AtomicLongArray(workers);
		this.inFlightItems = new AtomicReferenceArray<>(workers);
		this.slots = new WorkerSlot[workers];
		for (int i = 0; i < workers; i++) {
			this.slots[i] = new WorkerSlot();
		}
		for (int i = 0; i < workers; i++) {
			this.busySince.set(i, IDLE);
		}
	}

	synchronized void start() {
		if (this.running || this.stopping) {
			return;
		}
		for (int i = 0; i < this.workers; i++) {
			int slot = i;
			Thread thread = this.threadFactory.newThread(() -> runWorker(slot));
			this.threads.add(thread);
			synchronized (this.slots[slot]) {
				this.slots[slot].thread = thread;
			}
		}
		this.running = true;
		this.liveWorkers.set(this.workers);
		this.threads.forEach(Thread::start);
	}

	/**
	 * Starts shutting down: the queue stops accepting items and drops the waiting ones,
	 * and workers finish what is queued. Does not wait.
	 */
	void initiateShutdown() {
		this.pauseLock.lock();
		try {
			this.stopping = true;
			this.unpaused.signalAll();
		}
		finally {
			this.pauseLock.unlock();
		}
		this.queue.shutDown();
		this.waitingAtShutdown = this.queue.discardedAtShutdown();
	}

	/**
	 * Waits for the workers until the deadline, then counts and logs what is left.
	 * @param deadlineNanos {@link System#nanoTime()} to give up at
	 * @throws InterruptedException if interrupted while waiting
	 */
	void awaitShutdown(long deadlineNanos) throws InterruptedException {
		this.queue.shutDownWithDrain(Duration.ofNanos(Math.max(0, deadlineNanos - System.nanoTime())));
		for (Thread thread : this.threads) {
			long remainingMillis = Math.max(1, (deadlineNanos - System.nanoTime()) / 1_000_000);
			thread.join(remainingMillis);
		}
		// From here on no worker method call starts: a worker that takes an item hands it
		// to the report instead.
		this.gaveUp = true;
		List<Object> inFlight = new ArrayList<>();
		for (int i = 0; i < this.inFlightItems.length(); i++) {
			Object item = this.inFlightItems.get(i);
			if (item != null) {
				inFlight.add(item);
			}
		}
		Optional<Object> next;
		while ((next = this.queue.get(Duration.ZERO)).isPresent()) {
			this.abandoned.add(next.get());
			this.queue.done(next.get());
		}
		List<Object> queued = new ArrayList<>(this.abandoned);
		List<Object> waiting = this.waitingAtShutdown;
		long unfinished = (long) inFlight.size() + queued.size() + waiting.size();
		this.unfinishedAtShutdown = unfinished;
		if (unfinished > 0) {
			logger.warn("Queue '" + queueName() + "' shut down with " + unfinished + " unfinished item(s): "
					+ inFlight.size() + " in flight " + sample(inFlight) + ", " + queued.size() + " queued "
					+ sample(queued) + ", " + waiting.size() + " waiting for a delay " + sample(waiting)
					+ "; they are published as an ItemsUnfinishedAtShutdownEvent");
			this.events.publishEvent(new ItemsUnfinishedAtShutdownEvent(queueName(), inFlight, queued, waiting));
		}
		for (Thread thread : this.threads) {
			if (thread.isAlive()) {
				thread.interrupt();
			}
		}
		this.running = false;
	}

	/** The first items of a list, for a log line. */
	private static String sample(List<Object> items) {
		if (items.size() <= LOGGED_ITEMS) {
			return items.toString();
		}
		return items.subList(0, LOGGED_ITEMS).toString().replaceFirst("]$", ", ...]");
	}

	private void runWorker(int slot) {
		try {
			while (awaitUnpaused()) {
				Optional<Object> next = take(slot);
				if (next == null) {
					continue;
				}
				if (next.isEmpty()) {
					return;
				}
				Object item = next.get();
				if (this.gaveUp) {
					this.abandoned.add(item);
					this.queue.done(item);
					return;
				}
				process(slot, item);
			}
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
		}
		finally {
			this.liveWorkers.decrementAndGet();
		}
	}

	/**
	 * Takes the next item, unless a pause interrupts the wait.
	 * @param slot the worker's slot
	 * @return the queue's answer, or null if a pause interrupted the wait
	 * @throws InterruptedException if the worker was interrupted otherwise
	 */
	private @Nullable Optional<Object> take(int slot) throws InterruptedException {
		WorkerSlot worker = this.slots[slot];
		synchronized (worker) {
			if (this.paused) {
				return null;
			}
			worker.inGet = true;
		}
		try {
			return this.queue.get();
		}
		catch (InterruptedException ex) {
			synchronized (worker) {
				worker.inGet = false;
				if (worker.interruptedByPause) {
					worker.interruptedByPause = false;
					return null;
				}
			}
			throw ex;
		}
		finally {
			synchronized (worker) {
				worker.inGet = false;
				if (worker.interruptedByPause) {
					// The pause came after the item was taken: its interrupt must not
					// reach the worker method.
					worker.interruptedByPause = false;
					Thread.interrupted();
				}
			}
		}
	}

	/** Waits while paused; false when the worker should exit (paused and stopping). */
	private boolean awaitUnpaused() throws InterruptedException {
		this.pauseLock.lock();
		try {
			while (this.paused && !this.stopping) {
				this.unpaused.await();
			}
			return !this.paused;
		}
		finally {
			this.pauseLock.unlock();
		}
	}

	private void process(int slot, Object item) {
		this.inFlightItems.set(slot, item);
		this.busySince.set(slot, this.clock.nanoTime());
		try {
			handle(item);
		}
		catch (Throwable ex) {
			// Also what a limiter bean or an event listener throws, checked or not: the
			// worker must survive it.
			logger.error("Queue '" + queueName() + "': handling the outcome of item '" + item + "' failed", ex);
		}
		finally {
			this.busySince.set(slot, IDLE);
			this.inFlightItems.set(slot, null);
			this.queue.done(item);
		}
	}

	private void handle(Object item) {
		if (!this.method.accepts(item)) {
			giveUp(item, GiveUpReason.ITEM_TYPE_MISMATCH,
					new IllegalArgumentException("Item of type " + item.getClass().getName() + " cannot be passed to "
							+ this.method + ", which takes " + this.method.itemType().getName()));
			return;
		}
		WorkResult result;
		try {
			result = this.observer.observe(queueName(), item, () -> this.method.invoke(item));
		}
		catch (Throwable failure) {
			failed(item, failure);
			return;
		}
		this.succeeded.increment();
		this.failures.remove(item);
		switch (result.kind()) {
			case DONE -> this.queue.forget(item);
			case REQUEUE -> this.queue.addRateLimited(item);
			case REQUEUE_AFTER -> {
				this.queue.forget(item);
				this.queue.addAfter(item, result.delay());
			}
		}
	}

	private void failed(Object item, Throwable failure) {
		if (failure instanceof InterruptedException) {
			// The method was interrupted (shutdown gave up, or someone interrupted the
			// worker): not a failure of the item. Keep the interrupt and put the item
			// back; while the queue shuts down the add is dropped and counted.
			Thread.currentThread().interrupt();
			logger.warn("Queue '" + queueName() + "': worker interrupted while processing item '" + item
					+ "'; the item is added back, not retried as a failure");
			this.queue.add(item);
			return;
		}
		int attempt = this.failures.merge(item, 1, Integer::sum);
		if (this.policy.isNotRetryable(failure)) {
			giveUp(item, GiveUpReason.NOT_RETRYABLE, failure);
		}
		else if (this.policy.retriesExhausted(attempt - 1)) {
			giveUp(item, GiveUpReason.MAX_RETRIES, failure);
		}
		else {
			this.retried.increment();
			Duration delay = this.queue.addRateLimited(item);
			logger.warn("Queue '" + queueName() + "': item '" + item + "' failed (attempt " + attempt
					+ this.policy.ofMaxAttempts() + "), retrying in " + delay, failure);
		}
	}

	private void giveUp(Object item, GiveUpReason reason, Throwable failure) {
		Integer failed = this.failures.remove(item);
		int attempts = (failed != null) ? failed : 1;
		this.queue.forget(item);
		this.givenUp.increment();
		logger.warn("Queue '" + queueName() + "': gave up item '" + item + "' after " + attempts + " attempt(s) ("
				+ reason + ")", failure);
		this.events.publishEvent(new ItemGivenUpEvent(queueName(), item, reason, attempts, failure));
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
		int busy = 0;
		for (int i = 0; i < this.busySince.length(); i++) {
			if (this.busySince.get(i) != IDLE) {
				busy++;
			}
		}
		return busy;
	}

	@Override
	public Duration longestRunning() {
		long now = this.clock.nanoTime();
		long longest = 0;
		for (int i = 0; i < this.busySince.length(); i++) {
			long since = this.busySince.get(i);
			if (since != IDLE) {
				longest = Math.max(longest, now - since);
			}
		}
		return Duration.ofNanos(longest);
	}

	@Override
	public boolean isRunning() {
		return this.running;
	}

	@Override
	public void pause() {
		this.pauseLock.lock();
		try {
			this.paused = true;
		}
		finally {
			this.pauseLock.unlock();
		}
		// A worker blocked in get would take the next item: interrupt the wait. Under the
		// slot's lock, so the interrupt reaches the get and never the worker method.
		for (WorkerSlot worker : this.slots) {
			synchronized (worker) {
				if (worker.inGet && worker.thread != null) {
					worker.interruptedByPause = true;
					worker.thread.interrupt();
				}
			}
		}
	}

	@Override
	public void resume() {
		this.pauseLock.lock();
		try {
			this.paused = false;
			this.unpaused.signalAll();
		}
		finally {
			this.pauseLock.unlock();
		}
	}

	@Override
	public boolean isPaused() {
		return this.paused;
	}

	@Override
	public Outcomes outcomes() {
		return new Outcomes(this.succeeded.sum(), this.retried.sum(), this.givenUp.sum(), this.unfinishedAtShutdown);
	}

	@Override
	public String toString() {
		return "QueueWorkerContainer[" + queueName() + ", " + this.method + ", workers=" + this.workers + "]";
	}

	/**
	 * Whether a worker waits in {@code get}, and whether a pause interrupted it there.
	 * Guarded by its own monitor.
	 */
	private static final class WorkerSlot {

		@Nullable Thread thread;

		boolean inGet;

		boolean interruptedByPause;

	}

	/**
	 * When an item is not retried.
	 *
	 * @param maxRetries retries before giving up, or null for no limit
	 * @param notRetryable exception types never retried
	 */
	record WorkerPolicy(@Nullable Integer maxRetries, List<Class<? extends Throwable>> notRetryable) {

		boolean isNotRetryable(Throwable failure) {
			return this.notRetryable.stream().anyMatch((type) -> type.isInstance(failure));
		}

		/** Whether an item that has failed this many times before may not be retried. */
		boolean retriesExhausted(int retriesSoFar) {
			return this.maxRetries != null && retriesSoFar >= this.maxRetries;
		}

		String ofMaxAttempts() {
			return (this.maxRetries != null) ? " of " + (this.maxRetries + 1) : "";
		}

	}

}
