package io.github.workqueue.core.internal;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Consumer;

import org.jspecify.annotations.Nullable;

import io.github.workqueue.core.Clock;
import io.github.workqueue.core.DelayingQueue;
import io.github.workqueue.core.FairnessKeyExtractor;
import io.github.workqueue.core.metrics.DropReason;
import io.github.workqueue.core.metrics.MetricsProvider;
import io.github.workqueue.core.trace.TraceCapture;
import io.github.workqueue.core.trace.TraceCarry;

/**
 * The delaying layer: an item added with a delay waits in a heap ordered by ready time
 * (then by the order of the first {@code addAfter}) until it is due.
 *
 * <p>
 * <b>Concurrency.</b> The waiting state is guarded by the queue's one lock (inherited),
 * and due items are promoted <em>lazily</em>: every operation reads the clock under the
 * lock and first adds every waiting item that is due by then, in heap order. The queue is
 * therefore always exactly as if each item had been added at the moment it became due,
 * whatever thread reads it and whether or not a timer has fired yet, which is what makes
 * the layer linearizable against the sequential model. The one timer per queue
 * ({@link #armed}) only wakes consumers blocked in {@code get}: when the heap is not
 * empty a timer is armed for a deadline no later than the earliest ready time.
 * Invariants, under the lock:
 * <ul>
 * <li>an item's {@link QueueEntry#WAITING} bit is set exactly when its entry is in
 * {@link #heap} (its {@link QueueEntry#waitingSlot} is set), once;
 * <li>after every operation no entry of the heap is due at the time that operation read;
 * <li>when the heap is not empty, {@link #armed} is set, with a deadline no later than
 * the first entry's ready time; superseded timers are cancelled.
 * </ul>
 *
 * @param <T> the item type
 */
public class DefaultDelayingQueue<T> extends DefaultWorkQueue<T> implements DelayingQueue<T> {

	private static final System.Logger logger = System.getLogger(DelayingQueue.class.getName());

	/** Guarded by {@code lock}. */
	private final WaitingHeap<T> heap = new WaitingHeap<>();

	/** Guarded by {@code lock}. */
	private long nextSequence;

	/** Guarded by {@code lock}. */
	private @Nullable DelayTimer armed;

	/** Waiting items discarded by shutdown and not reported yet. */
	private final AtomicInteger discardedUnreported = new AtomicInteger();

	/** Guarded by {@code lock}: the items shutdown discarded, in ready-time order. */
	private List<T> discarded = List.of();

	private final Consumer<DelayTimer> fire = new Fire();

	public DefaultDelayingQueue(String name, Clock clock, MetricsProvider metricsProvider,
			Duration unfinishedWorkUpdatePeriod) {
		this(name, clock, metricsProvider, unfinishedWorkUpdatePeriod, 0, null);
	}

	public DefaultDelayingQueue(String name, Clock clock, MetricsProvider metricsProvider,
			Duration unfinishedWorkUpdatePeriod, int defaultPriority,
			@Nullable FairnessKeyExtractor<? super T> fairness) {
		this(name, clock, metricsProvider, unfinishedWorkUpdatePeriod, defaultPriority, fairness, null);
	}

	public DefaultDelayingQueue(String name, Clock clock, MetricsProvider metricsProvider,
			Duration unfinishedWorkUpdatePeriod, int defaultPriority,
			@Nullable FairnessKeyExtractor<? super T> fairness, @Nullable TraceCapture traceCapture) {
		super(name, clock, metricsProvider, unfinishedWorkUpdatePeriod, defaultPriority, fairness, traceCapture);
	}

	@Override
	public void addAfter(T item, Duration delay) {
		Objects.requireNonNull(item, "item");
		long delayNanos = Nanos.of(delay);
		String trace = TraceCarry.ofAdd(this.traceCapture);
		DelayTimer toStart;
		synchronized (this.lock) {
			toStart = addAfterLocked(item, delayNanos, this.defaultPriority);
			traceLocked(item, trace);
		}
		start(toStart);
	}

	/**
	 * The delayed add, under the lock; counters are recorded here.
	 * @param item the item
	 * @param delayNanos the delay
	 * @param priority the add's priority, given to the item at once (and kept if higher
	 * than the one it gets later)
	 * @return a timer to {@linkplain #start(DelayTimer) start} once the lock is released
	 */
	final @Nullable DelayTimer addAfterLocked(T item, long delayNanos, int priority) {
		if (isShuttingDown()) {
			this.metrics.dropped(DropReason.ADD_AFTER_SHUTDOWN, 1);
			return null;
		}
		this.metrics.retried();
		long now = this.clock.nanoTime();
		promoteDueLocked(now);
		if (delayNanos <= 0) {
			recordAdd(addLocked(item, priority));
			return null;
		}
		long readyAt = Nanos.saturatedAdd(now, delayNanos);
		QueueEntry<T> entry = this.entries.find(item);
		if (entry == null) {
			entry = newEntry(item, QueueEntry.WAITING, priority);
			this.entries.insert(entry);
		}
		else {
			raiseLocked(entry, priority);
			if (entry.waitingSlot != WaitingHeap.NO_SLOT) {
				if (readyAt >= this.heap.readyAt(entry)) {
					return null;
				}
				this.heap.moveEarlier(entry, readyAt);
				return rearmLocked();
			}
			entry.set(entry.state() | QueueEntry.WAITING);
		}
		this.heap.add(entry, readyAt, this.nextSequence++);
		this.metrics.waiting(this.heap.size());
		return rearmLocked();
	}

	/**
	 * Starts a timer chosen under the lock; called after the lock is released.
	 * @param timer the timer, or null
	 */
	static void start(@Nullable DelayTimer timer) {
		if (timer != null) {
			timer.start();
		}
	}

	@Override
	void cancelWaitingLocked(QueueEntry<T> entry) {
		if (entry.waitingSlot != WaitingHeap.NO_SLOT) {
			this.heap.remove(entry);
			this.metrics.waiting(this.heap.size());
		}
	}

	@Override
	void promoteDueLocked() {
		if (this.heap.size() > 0) {
			promoteDueLocked(this.clock.nanoTime());
		}
	}

	private void promoteDueLocked(long now) {
		int promoted = 0;
		int added = 0;
		QueueEntry<T> entry;
		while ((entry = this.heap.pollReady(now)) != null) {
			promoted++;
			if (addEntryLocked(entry, entry.priority)) {
				added++;
			}
		}
		if (promoted > 0) {
			this.metrics.waiting(this.heap.size());
			if (added > 0) {
				this.metrics.added(added);
			}
		}
	}

	@Override
	public int waitingLen() {
		synchronized (this.lock) {
			promoteDueLocked();
			return this.heap.size();
		}
	}

	@Override
	void discardWaitingLocked() {
		int discarded = this.heap.size();
		if (discarded > 0) {
			List<T> inOrder = new ArrayList<>(discarded);
			QueueEntry<T> entry;
			while ((entry = this.heap.pollReady(Long.MAX_VALUE)) != null) {
				inOrder.add(entry.item);
				int state = entry.state() & ~QueueEntry.WAITING;
				if (this.traces != null && (state & QueueEntry.DIRTY) == 0) {
					// No add of it is left to process: the contexts of its delayed adds
					// go.
					this.traces.removed(entry.item);
				}
				if (state == 0) {
					releaseLocked(entry);
				}
				else {
					entry.set(state);
				}
			}
			this.discarded = Collections.unmodifiableList(inOrder);
			this.heap.clear();
			this.metrics.waiting(0);
			this.discardedUnreported.addAndGet(discarded);
		}
		if (this.armed != null) {
			this.armed.cancel();
			this.armed = null;
		}
	}

	@Override
	public List<T> discardedAtShutdown() {
		synchronized (this.lock) {
			return this.discarded;
		}
	}

	@Override
	void afterShutDown() {
		int discarded = this.discardedUnreported.getAndSet(0);
		if (discarded > 0) {
			this.metrics.dropped(DropReason.WAITING_AT_SHUTDOWN, discarded);
			logger.log(System.Logger.Level.WARNING,
					() -> "workqueue '" + name() + "' discarded " + discarded + " waiting item(s) at shutdown");
		}
		super.afterShutDown();
	}

	/**
	 * Arms a timer for the first waiting entry unless one is armed early enough.
	 * @return the new timer, to start once the lock is released
	 */
	private @Nullable DelayTimer rearmLocked() {
		if (this.heap.size() == 0) {
			return null;
		}
		long first = this.heap.firstReadyAt();
		DelayTimer current = this.armed;
		if (current != null && current.deadline <= first) {
			return null;
		}
		if (current != null) {
			current.cancel();
		}
		DelayTimer timer = new DelayTimer(this.clock, first, this.fire);
		this.armed = timer;
		return timer;
	}

	private void fire(DelayTimer timer) {
		DelayTimer next;
		synchronized (this.lock) {
			if (this.armed != timer) {
				return;
			}
			this.armed = null;
			promoteDueLocked();
			next = rearmLocked();
		}
		start(next);
	}

	/**
	 * What a timer runs; a named class rather than a lambda, so heap tools can walk it.
	 */
	private final class Fire implements Consumer<DelayTimer> {

		@Override
		public void accept(DelayTimer timer) {
			fire(timer);
		}

	}

}
