package io.github.workqueue.core.internal;

import java.time.Duration;
import java.util.ArrayDeque;
import java.util.HashSet;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;

import io.github.workqueue.core.Clock;
import io.github.workqueue.core.metrics.MetricsProvider;
import io.github.workqueue.core.WorkQueue;
import io.github.workqueue.core.metrics.DropReason;

/**
 * The FIFO layer: client-go's {@code Typed} queue.
 *
 * <p>
 * <b>Concurrency.</b> All state is guarded by {@link #lock}, one lock per queue, shared
 * with the layers built on this class. Invariants, kept under the lock:
 * <ul>
 * <li>every item in {@link #fifo} is in {@link #dirty} and not in {@link #processing};
 * <li>{@link #fifo} holds no duplicates.
 * </ul>
 * {@link #dirty} is only changed under the lock but is a concurrent set, so that
 * {@link #add(Object)} can answer a duplicate add without taking the lock: when the item
 * is dirty (and no layer needs to see the add, see {@link #mayHaveWaitingItems()}), the
 * add is linearized at that read and changes nothing. That keeps producers that hammer
 * one key from contending with the consumers for the lock.
 *
 * @param <T> the item type
 */
public class DefaultWorkQueue<T> implements WorkQueue<T> {

	private static final System.Logger logger = System.getLogger(WorkQueue.class.getName());

	private final String name;

	final Clock clock;

	final QueueMetrics<T> metrics;

	final ReentrantLock lock = new ReentrantLock();

	private final Condition notEmpty = this.lock.newCondition();

	private final Condition idle = this.lock.newCondition();

	/** Guarded by {@code lock}. */
	private final ArrayDeque<T> fifo = new ArrayDeque<>();

	/** Written under {@code lock}, read anywhere. */
	private final Set<T> dirty = ConcurrentHashMap.newKeySet();

	/** Guarded by {@code lock}. */
	private final Set<T> processing = new HashSet<>();

	/** Written under {@code lock}. */
	private volatile boolean shuttingDown;

	/** Guarded by {@code lock}: a drain is waiting for processing to become empty. */
	private boolean draining;

	/** Guarded by {@code lock}. */
	private Clock.Timer unfinishedWorkTimer;

	private final long unfinishedWorkPeriodNanos;

	public DefaultWorkQueue(String name, Clock clock, MetricsProvider metricsProvider,
			Duration unfinishedWorkUpdatePeriod) {
		this.name = name;
		this.clock = clock;
		this.metrics = QueueMetrics.create(name, clock, metricsProvider);
		this.unfinishedWorkPeriodNanos = Nanos.of(unfinishedWorkUpdatePeriod);
		if (this.metrics.enabled()) {
			this.lock.lock();
			try {
				scheduleUnfinishedWorkUpdate();
			}
			finally {
				this.lock.unlock();
			}
		}
	}

	@Override
	public final String name() {
		return this.name;
	}

	@Override
	public void add(T item) {
		Objects.requireNonNull(item, "item");
		// The order of these reads matters: see the class comment.
		if (this.dirty.contains(item) && !mayHaveWaitingItems() && !this.shuttingDown) {
			return;
		}
		this.lock.lock();
		try {
			addLocked(item);
		}
		finally {
			this.lock.unlock();
		}
	}

	/**
	 * Tells whether a layer keeps items outside the FIFO that an add must see even when
	 * the item is dirty. Read without the lock.
	 * @return true if the lock-free duplicate check must not be used now
	 */
	boolean mayHaveWaitingItems() {
		return false;
	}

	/**
	 * The add itself; called with the lock held.
	 * @param item the item
	 */
	void addLocked(T item) {
		if (this.shuttingDown) {
			this.metrics.dropped(DropReason.ADD_AFTER_SHUTDOWN, 1);
			return;
		}
		if (!this.dirty.add(item)) {
			return;
		}
		this.metrics.added(item);
		if (this.processing.contains(item)) {
			return;
		}
		this.fifo.addLast(item);
		this.notEmpty.signal();
	}

	@Override
	public Optional<T> get() throws InterruptedException {
		this.lock.lockInterruptibly();
		try {
			while (this.fifo.isEmpty() && !this.shuttingDown) {
				this.notEmpty.await();
			}
			return Optional.ofNullable(takeLocked());
		}
		finally {
			this.lock.unlock();
		}
	}

	@Override
	public Optional<T> get(Duration timeout) throws InterruptedException {
		long remaining = Nanos.of(timeout);
		this.lock.lockInterruptibly();
		try {
			while (this.fifo.isEmpty() && !this.shuttingDown) {
				if (remaining <= 0) {
					return Optional.empty();
				}
				remaining = this.notEmpty.awaitNanos(remaining);
			}
			return Optional.ofNullable(takeLocked());
		}
		finally {
			this.lock.unlock();
		}
	}

	private T takeLocked() {
		T item = this.fifo.pollFirst();
		if (item == null) {
			return null;
		}
		this.metrics.taken(item);
		this.processing.add(item);
		this.dirty.remove(item);
		return item;
	}

	@Override
	public void done(T item) {
		Objects.requireNonNull(item, "item");
		this.lock.lock();
		try {
			if (!this.processing.remove(item)) {
				return;
			}
			this.metrics.finished(item);
			if (this.dirty.contains(item)) {
				this.fifo.addLast(item);
				this.notEmpty.signal();
			}
			else if (this.processing.isEmpty() && this.draining) {
				this.idle.signalAll();
			}
		}
		finally {
			this.lock.unlock();
		}
	}

	@Override
	public int len() {
		this.lock.lock();
		try {
			return this.fifo.size();
		}
		finally {
			this.lock.unlock();
		}
	}

	@Override
	public void shutDown() {
		this.lock.lock();
		try {
			this.draining = false;
			shutDownLocked();
		}
		finally {
			this.lock.unlock();
		}
	}

	@Override
	public void shutDownWithDrain() throws InterruptedException {
		this.lock.lock();
		try {
			this.draining = true;
			shutDownLocked();
			while (this.draining && !this.processing.isEmpty()) {
				this.idle.await();
			}
		}
		finally {
			this.lock.unlock();
		}
	}

	@Override
	public boolean shutDownWithDrain(Duration timeout) throws InterruptedException {
		long remaining = Nanos.of(timeout);
		this.lock.lock();
		try {
			this.draining = true;
			shutDownLocked();
			while (this.draining && !this.processing.isEmpty() && remaining > 0) {
				remaining = this.idle.awaitNanos(remaining);
			}
			return this.processing.isEmpty();
		}
		finally {
			this.lock.unlock();
		}
	}

	/**
	 * Marks the queue shut down and wakes everyone; layers extend it to release what they
	 * hold. Called with the lock held, possibly more than once.
	 */
	void shutDownLocked() {
		if (!this.shuttingDown) {
			this.shuttingDown = true;
			if (this.unfinishedWorkTimer != null) {
				this.unfinishedWorkTimer.cancel();
				this.unfinishedWorkTimer = null;
			}
			logger.log(System.Logger.Level.DEBUG, () -> "workqueue '" + this.name + "' shutting down with "
					+ this.fifo.size() + " queued and " + this.processing.size() + " processing");
		}
		this.notEmpty.signalAll();
		this.idle.signalAll();
	}

	@Override
	public boolean isShuttingDown() {
		return this.shuttingDown;
	}

	private void scheduleUnfinishedWorkUpdate() {
		long deadline = Nanos.saturatedAdd(this.clock.nanoTime(), this.unfinishedWorkPeriodNanos);
		this.unfinishedWorkTimer = this.clock.schedule(deadline, this::updateUnfinishedWork);
	}

	private void updateUnfinishedWork() {
		this.lock.lock();
		try {
			if (this.shuttingDown) {
				return;
			}
			this.metrics.updateUnfinishedWork();
			scheduleUnfinishedWorkUpdate();
		}
		finally {
			this.lock.unlock();
		}
	}

	@Override
	public String toString() {
		return getClass().getSimpleName() + "[" + this.name + "]";
	}

}
