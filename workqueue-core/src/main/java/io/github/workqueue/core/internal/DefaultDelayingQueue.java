package io.github.workqueue.core.internal;

import java.time.Duration;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.ConcurrentHashMap;

import org.jspecify.annotations.Nullable;

import io.github.workqueue.core.Clock;
import io.github.workqueue.core.metrics.MetricsProvider;
import io.github.workqueue.core.DelayingQueue;
import io.github.workqueue.core.metrics.DropReason;

/**
 * The delaying layer: items wait in a heap ordered by ready time until one clock timer,
 * set for the earliest of them, moves every due item into the FIFO.
 *
 * <p>
 * <b>Concurrency.</b> The waiting state is guarded by the queue's one lock (inherited).
 * Invariants, kept under the lock: {@link #waiting} and {@link #heap} hold the same
 * entries, one per item; when the heap is not empty a timer is set no later than its
 * first ready time. {@link #waiting} is only changed under the lock but is a concurrent
 * map, so that an add can tell without the lock that its item is not waiting.
 *
 * @param <T> the item type
 */
public class DefaultDelayingQueue<T> extends DefaultWorkQueue<T> implements DelayingQueue<T> {

	private static final System.Logger logger = System.getLogger(DelayingQueue.class.getName());

	/** Written under {@code lock}, read anywhere. */
	private final Map<T, WaitingEntry<T>> waiting = new ConcurrentHashMap<>();

	/** Guarded by {@code lock}. */
	private final WaitingHeap<T> heap = new WaitingHeap<>();

	/** Guarded by {@code lock}. */
	private long nextSequence;

	/** Guarded by {@code lock}. */
	private Clock.@Nullable Timer timer;

	/** Guarded by {@code lock}: when {@link #timer} fires. */
	private long timerDeadline;

	private final Runnable fireDueItems = new FireDueItems();

	public DefaultDelayingQueue(String name, Clock clock, MetricsProvider metricsProvider,
			Duration unfinishedWorkUpdatePeriod) {
		super(name, clock, metricsProvider, unfinishedWorkUpdatePeriod);
	}

	@Override
	public void addAfter(T item, Duration delay) {
		Objects.requireNonNull(item, "item");
		if (isShuttingDown()) {
			this.metrics.dropped(DropReason.ADD_AFTER_SHUTDOWN, 1);
			return;
		}
		this.metrics.retried();
		long delayNanos = Nanos.of(delay);
		if (delayNanos <= 0) {
			add(item);
			return;
		}
		long readyAt = Nanos.saturatedAdd(this.clock.nanoTime(), delayNanos);
		this.lock.lock();
		try {
			if (isShuttingDown()) {
				this.metrics.dropped(DropReason.ADD_AFTER_SHUTDOWN, 1);
				return;
			}
			WaitingEntry<T> entry = this.waiting.get(item);
			if (entry != null) {
				if (readyAt < entry.readyAt) {
					entry.readyAt = readyAt;
					this.heap.movedEarlier(entry);
					ensureTimerLocked();
				}
				return;
			}
			entry = new WaitingEntry<>(item, readyAt, this.nextSequence++);
			this.waiting.put(item, entry);
			this.heap.add(entry);
			waitingChangedLocked();
			ensureTimerLocked();
		}
		finally {
			this.lock.unlock();
		}
	}

	@Override
	boolean isHeldElsewhere(T item) {
		return this.waiting.containsKey(item);
	}

	@Override
	void addLocked(T item) {
		if (!this.waiting.isEmpty()) {
			WaitingEntry<T> entry = this.waiting.remove(item);
			if (entry != null) {
				this.heap.remove(entry);
				waitingChangedLocked();
			}
		}
		super.addLocked(item);
	}

	@Override
	public int waitingLen() {
		return this.waiting.size();
	}

	@Override
	void shutDownLocked() {
		int discarded = this.waiting.size();
		if (discarded > 0) {
			this.waiting.clear();
			this.heap.clear();
			waitingChangedLocked();
			this.metrics.dropped(DropReason.WAITING_AT_SHUTDOWN, discarded);
			logger.log(System.Logger.Level.WARNING,
					() -> "workqueue '" + name() + "' discarded " + discarded + " waiting item(s) at shutdown");
		}
		if (this.timer != null) {
			this.timer.cancel();
			this.timer = null;
		}
		super.shutDownLocked();
	}

	private void fireDueItems() {
		this.lock.lock();
		try {
			this.timer = null;
			if (isShuttingDown()) {
				return;
			}
			long now = this.clock.nanoTime();
			WaitingEntry<T> first;
			int moved = 0;
			while ((first = this.heap.peek()) != null && first.readyAt <= now) {
				this.heap.poll();
				this.waiting.remove(first.item);
				moved++;
				super.addLocked(first.item);
			}
			if (moved > 0) {
				waitingChangedLocked();
			}
			ensureTimerLocked();
		}
		finally {
			this.lock.unlock();
		}
	}

	/** The timer task; a named class rather than a lambda, so heap tools can walk it. */
	private final class FireDueItems implements Runnable {

		@Override
		public void run() {
			fireDueItems();
		}

	}

	/** Sets the timer for the first waiting entry unless one is set early enough. */
	private void ensureTimerLocked() {
		WaitingEntry<T> first = this.heap.peek();
		if (first == null || (this.timer != null && this.timerDeadline <= first.readyAt)) {
			return;
		}
		if (this.timer != null) {
			this.timer.cancel();
		}
		this.timerDeadline = first.readyAt;
		this.timer = this.clock.schedule(first.readyAt, this.fireDueItems);
	}

	private void waitingChangedLocked() {
		this.metrics.waiting(this.heap.size());
	}

}
