package io.github.workqueue.core.internal;

import java.time.Duration;
import java.util.Objects;
import java.util.Optional;

import org.jspecify.annotations.Nullable;

import io.github.workqueue.core.Clock;
import io.github.workqueue.core.FairnessKeyExtractor;
import io.github.workqueue.core.PrioritizedItem;
import io.github.workqueue.core.RateLimitingQueue;
import io.github.workqueue.core.WorkQueue;
import io.github.workqueue.core.metrics.MetricsProvider;
import io.github.workqueue.core.trace.AddTraces;
import io.github.workqueue.core.trace.TraceCapture;
import io.github.workqueue.core.trace.TracedQueue;

/**
 * The FIFO layer: client-go's {@code Typed} queue. Its items' states, their lock and the
 * adds and removes are {@link ItemStates}' (whose comment states the concurrency protocol
 * and its invariants); this class adds the consumers' side ({@code get}, {@code done},
 * waiting for an item) and the lifecycle (shutdown and drain), under the same lock. With
 * metrics on, it also keeps the processing entries ({@code processing}, guarded by the
 * lock) and their periodic gauges.
 *
 * @param <T> the item type
 */
public class DefaultWorkQueue<T> extends ItemStates<T> implements TracedQueue<T> {

	private static final System.Logger logger = System.getLogger(WorkQueue.class.getName());

	/** Guarded by {@code lock}: the processing entries, with metrics on. */
	private final ProcessingList<T> processing = new ProcessingList<>();

	/** The periodic gauges, with metrics on. */
	private final UnfinishedWorkGauges<T> unfinishedWork;

	public DefaultWorkQueue(String name, Clock clock, MetricsProvider metricsProvider,
			Duration unfinishedWorkUpdatePeriod) {
		this(name, clock, metricsProvider, unfinishedWorkUpdatePeriod, 0, null);
	}

	public DefaultWorkQueue(String name, Clock clock, MetricsProvider metricsProvider,
			Duration unfinishedWorkUpdatePeriod, int defaultPriority,
			@Nullable FairnessKeyExtractor<? super T> fairness) {
		this(name, clock, metricsProvider, unfinishedWorkUpdatePeriod, defaultPriority, fairness, null);
	}

	public DefaultWorkQueue(String name, Clock clock, MetricsProvider metricsProvider,
			Duration unfinishedWorkUpdatePeriod, int defaultPriority,
			@Nullable FairnessKeyExtractor<? super T> fairness, @Nullable TraceCapture traceCapture) {
		super(name, clock, metricsProvider, defaultPriority, fairness, traceCapture);
		this.unfinishedWork = new UnfinishedWorkGauges<>(this, this.processing, Nanos.of(unfinishedWorkUpdatePeriod));
		if (this.metrics.enabled()) {
			this.unfinishedWork.start();
		}
	}

	@Override
	@SuppressWarnings("unchecked")
	public Optional<T> get() throws InterruptedException {
		return Optional.ofNullable((T) take(Long.MAX_VALUE, false));
	}

	@Override
	@SuppressWarnings("unchecked")
	public Optional<T> get(Duration timeout) throws InterruptedException {
		return Optional.ofNullable((T) take(Nanos.of(timeout), false));
	}

	/** {@link RateLimitingQueue#getWithPriority()}. */
	@SuppressWarnings("unchecked")
	public Optional<PrioritizedItem<T>> getWithPriority() throws InterruptedException {
		return Optional.ofNullable((PrioritizedItem<T>) take(Long.MAX_VALUE, true));
	}

	/** {@link RateLimitingQueue#getWithPriority(Duration)}. */
	@SuppressWarnings("unchecked")
	public Optional<PrioritizedItem<T>> getWithPriority(Duration timeout) throws InterruptedException {
		return Optional.ofNullable((PrioritizedItem<T>) take(Nanos.of(timeout), true));
	}

	/**
	 * Takes the next item.
	 * @param timeoutNanos how long to wait at most
	 * @param withPriority whether to return a {@link PrioritizedItem} rather than the
	 * item
	 * @return the item (or the item with its priority), null when none
	 */
	private @Nullable Object take(long timeoutNanos, boolean withPriority) throws InterruptedException {
		QueueEntry<T> entry;
		int priority;
		long queuedNanos = 0;
		synchronized (this.lock) {
			long remaining = timeoutNanos;
			try {
				for (;;) {
					// As the JDK's blocking queues do: an interrupt that came before the
					// item could be taken wins, so that a thread told to stop takes
					// nothing.
					if (Thread.interrupted()) {
						throw new InterruptedException();
					}
					promoteDueLocked();
					entry = this.ready.poll();
					if (entry != null || this.shuttingDown || remaining <= 0) {
						break;
					}
					remaining = this.waits.awaitItem(remaining);
				}
			}
			catch (InterruptedException ex) {
				// The notification that an add sent may have chosen this thread just as
				// it was interrupted: pass it on, as a j.u.c. condition hands its signal
				// to the next waiter, so that no other consumer sleeps while an item is
				// queued.
				if (this.ready.size() > 0) {
					this.waits.itemQueued();
				}
				throw ex;
			}
			if (entry == null) {
				return null;
			}
			priority = entry.priority;
			int state = entry.state();
			entry.exchange((state & ~QueueEntry.DIRTY) | QueueEntry.PROCESSING);
			if (this.traces != null) {
				this.traces.taken(entry.item);
			}
			this.waits.processingStarted();
			if (this.metrics.enabled()) {
				queuedNanos = this.processing.started((TimedQueueEntry<T>) entry, this.clock.nanoTime());
				this.metrics.depthChanged(priority, -1);
			}
		}
		if (this.metrics.enabled()) {
			this.metrics.taken(queuedNanos);
		}
		return withPriority ? new PrioritizedItem<>(entry.item, priority) : entry.item;
	}

	/**
	 * {@inheritDoc}
	 * <p>
	 * Read without the lock: the take that began the calling thread's processing wrote
	 * them, under the lock, on this thread.
	 */
	@Override
	public Optional<AddTraces> addTraces(T item) {
		AddTraceStore<T> store = this.traces;
		return (store != null) ? Optional.ofNullable(store.ofProcessing(item)) : Optional.empty();
	}

	@Override
	public void done(T item) {
		Objects.requireNonNull(item, "item");
		long workNanos = -1;
		synchronized (this.lock) {
			promoteDueLocked();
			QueueEntry<T> entry = this.entries.find(item);
			if (entry == null) {
				return;
			}
			int state = entry.state();
			if ((state & QueueEntry.PROCESSING) == 0) {
				return;
			}
			if (this.metrics.enabled()) {
				workNanos = this.processing.finished((TimedQueueEntry<T>) entry, this.clock.nanoTime());
			}
			int after = state & ~QueueEntry.PROCESSING;
			if (this.traces != null) {
				this.traces.done(item);
			}
			if (after == 0) {
				releaseLocked(entry);
			}
			else {
				entry.set(after);
				if ((after & QueueEntry.DIRTY) != 0) {
					enqueueLocked(entry);
				}
			}
			this.waits.processingEnded();
		}
		if (workNanos >= 0) {
			this.metrics.finished(workNanos);
		}
	}

	/**
	 * {@inheritDoc}
	 * <p>
	 * Read under the lock: a duplicate add may return while the add it duplicates is
	 * still inside the lock, and a count read without the lock could then miss an item
	 * that an add already returned for.
	 */
	@Override
	public int len() {
		synchronized (this.lock) {
			promoteDueLocked();
			return this.ready.size();
		}
	}

	@Override
	public void shutDown() {
		synchronized (this.lock) {
			this.waits.draining(false);
			shutDownLocked();
		}
		afterShutDown();
	}

	@Override
	public void shutDownWithDrain() throws InterruptedException {
		try {
			synchronized (this.lock) {
				this.waits.draining(true);
				shutDownLocked();
				this.waits.awaitDrained(Long.MAX_VALUE);
			}
		}
		finally {
			afterShutDown();
		}
	}

	@Override
	public boolean shutDownWithDrain(Duration timeout) throws InterruptedException {
		long timeoutNanos = Nanos.of(timeout);
		try {
			synchronized (this.lock) {
				this.waits.draining(true);
				shutDownLocked();
				return this.waits.awaitDrained(timeoutNanos);
			}
		}
		finally {
			afterShutDown();
		}
	}

	/**
	 * Marks the queue shut down and wakes everyone. Called with the lock held, possibly
	 * more than once.
	 */
	private void shutDownLocked() {
		promoteDueLocked();
		if (!this.shuttingDown) {
			// Set before any waiting entry is discarded: a duplicate add that sees an
			// entry changed by the discard then also sees the shutdown.
			this.shuttingDown = true;
			logger.log(System.Logger.Level.DEBUG, () -> "workqueue '" + name() + "' shutting down with "
					+ this.ready.size() + " queued and " + this.waits.processing() + " processing");
		}
		discardWaitingLocked();
		this.waits.wakeAll();
	}

	/**
	 * Discards what waits outside the queue at shutdown; layers that keep waiting items
	 * override it. Under the lock, after {@link #shuttingDown} is set.
	 */
	void discardWaitingLocked() {
	}

	/**
	 * Runs after a shutdown released the lock; layers extend it to report what they
	 * dropped.
	 */
	void afterShutDown() {
		this.unfinishedWork.stop();
	}

	@Override
	public boolean isShuttingDown() {
		return this.shuttingDown;
	}

	@Override
	public String toString() {
		return getClass().getSimpleName() + "[" + name() + "]";
	}

}
