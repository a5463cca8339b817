package io.github.workqueue.core.internal;

import java.time.Duration;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;

import org.jspecify.annotations.Nullable;

import io.github.workqueue.core.Clock;
import io.github.workqueue.core.metrics.MetricsProvider;
import io.github.workqueue.core.WorkQueue;
import io.github.workqueue.core.metrics.DropReason;

/**
 * The FIFO layer: client-go's {@code Typed} queue.
 *
 * <p>
 * <b>State.</b> Each item is idle (absent from {@link #states}), {@code QUEUED} (dirty,
 * in the FIFO or about to be), {@code PROCESSING} (handed out, not dirty) or
 * {@code PROCESSING_DIRTY} (handed out and added again). client-go's dirty set is
 * {@code QUEUED} plus {@code PROCESSING_DIRTY}; its processing set is {@code PROCESSING}
 * plus {@code PROCESSING_DIRTY}.
 *
 * <p>
 * <b>Concurrency.</b> An item's state changes by atomic compare-and-set on
 * {@link #states}, so each transition has exactly one winner, and only the winner of a
 * transition into {@code QUEUED} pushes the item. The FIFO is a lock-free queue: without
 * metrics, add, get and done take no lock unless a consumer is blocked waiting for an
 * item ({@link #blockedConsumers}) or a drain waits. A lock on the common path turns a
 * dedup storm (producers hammering a few keys) into a lock convoy in which every push
 * waits for a thread wake-up and the consumer starves. {@link #lock}, one per queue and
 * shared with the layers built on this class, guards the conditions, the drain, the
 * layers' state and, with metrics on, every transition other than a duplicate add, so
 * that the per-item metrics bookkeeping sees transitions in order. Invariants:
 * <ul>
 * <li>an item is in {@link #fifo} at most once, and only while {@code QUEUED};
 * <li>a {@code QUEUED} item that is not in the FIFO is being pushed by the thread that
 * made it {@code QUEUED};
 * <li>{@link #processingCount} counts the items {@code PROCESSING} or
 * {@code PROCESSING_DIRTY}, less those whose {@code done} is finishing.
 * </ul>
 * With metrics on, every transition other than a duplicate add happens under the lock, so
 * that the per-item metrics bookkeeping sees transitions in order.
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

	/** Lock-free; see the class comment. */
	private final ConcurrentLinkedQueue<T> fifo = new ConcurrentLinkedQueue<>();

	/** The size of {@link #fifo}, kept alongside because its own size() walks it. */
	private final AtomicInteger queuedCount = new AtomicInteger();

	/** Consumers blocked in get; incremented before their last look at the FIFO. */
	private final AtomicInteger blockedConsumers = new AtomicInteger();

	/** Changed by compare-and-set; see the class comment. */
	private final ConcurrentHashMap<T, ItemState> states = new ConcurrentHashMap<>();

	private final AtomicInteger processingCount = new AtomicInteger();

	/** Written under {@code lock}. */
	private volatile boolean shuttingDown;

	/** Written under {@code lock}: a drain waits for processing to become empty. */
	private volatile boolean draining;

	/** Guarded by {@code lock}. */
	private Clock.@Nullable Timer unfinishedWorkTimer;

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
		// A duplicate add changes nothing: answered without the lock unless a layer holds
		// the item elsewhere. The order of the reads matters: the add is linearized at
		// the
		// state read, and the later reads prove nothing that would change its effect
		// happened in between.
		ItemState state = this.states.get(item);
		boolean elsewhere = isHeldElsewhere(item);
		if (isDirty(state) && !elsewhere && !this.shuttingDown) {
			return;
		}
		if (!elsewhere && !this.metrics.enabled()) {
			applyAdd(item, state);
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

	private static boolean isDirty(@Nullable ItemState state) {
		return state == ItemState.QUEUED || state == ItemState.PROCESSING_DIRTY;
	}

	/**
	 * Tells whether a layer holds the item outside the FIFO, so that an add must take the
	 * lock to see it even when the item is dirty. Read without the lock.
	 * @param item the item
	 * @return true if the add must take the lock
	 */
	boolean isHeldElsewhere(T item) {
		return false;
	}

	/**
	 * The add, for callers that hold the lock; layers extend it.
	 * @param item the item
	 */
	void addLocked(T item) {
		applyAdd(item, this.states.get(item));
	}

	/**
	 * The add's state transition, starting from the state last seen; takes the lock only
	 * to push.
	 */
	private void applyAdd(T item, @Nullable ItemState seen) {
		ItemState state = seen;
		for (;;) {
			if (this.shuttingDown) {
				this.metrics.dropped(DropReason.ADD_AFTER_SHUTDOWN, 1);
				return;
			}
			if (state == null) {
				state = this.states.putIfAbsent(item, ItemState.QUEUED);
				if (state == null) {
					push(item, true);
					return;
				}
			}
			else if (state == ItemState.PROCESSING) {
				if (this.states.replace(item, ItemState.PROCESSING, ItemState.PROCESSING_DIRTY)) {
					this.metrics.added(item);
					return;
				}
				state = this.states.get(item);
			}
			else {
				return;
			}
		}
	}

	private void push(T item, boolean newAdd) {
		if (newAdd) {
			this.metrics.added(item);
		}
		this.fifo.offer(item);
		this.queuedCount.incrementAndGet();
		// A consumer increments blockedConsumers before its last poll, so either it sees
		// this item or this thread sees it blocked and wakes it.
		if (this.blockedConsumers.get() > 0) {
			this.lock.lock();
			try {
				this.notEmpty.signal();
			}
			finally {
				this.lock.unlock();
			}
		}
	}

	@Override
	public Optional<T> get() throws InterruptedException {
		return get(Long.MAX_VALUE);
	}

	@Override
	public Optional<T> get(Duration timeout) throws InterruptedException {
		return get(Nanos.of(timeout));
	}

	private Optional<T> get(long timeoutNanos) throws InterruptedException {
		if (!this.metrics.enabled()) {
			T item = poll();
			if (item != null || (timeoutNanos <= 0 && !this.shuttingDown)) {
				return Optional.ofNullable(item);
			}
		}
		long remaining = timeoutNanos;
		this.lock.lockInterruptibly();
		try {
			this.blockedConsumers.incrementAndGet();
			try {
				T item;
				while ((item = poll()) == null && !this.shuttingDown) {
					if (remaining <= 0) {
						return Optional.empty();
					}
					if (remaining == Long.MAX_VALUE) {
						this.notEmpty.await();
					}
					else {
						remaining = this.notEmpty.awaitNanos(remaining);
					}
				}
				return Optional.ofNullable(item);
			}
			finally {
				this.blockedConsumers.decrementAndGet();
			}
		}
		finally {
			this.lock.unlock();
		}
	}

	/** Takes the first item and marks it processing; with metrics on, under the lock. */
	private @Nullable T poll() {
		T item = this.fifo.poll();
		if (item == null) {
			return null;
		}
		this.queuedCount.decrementAndGet();
		this.processingCount.incrementAndGet();
		this.states.put(item, ItemState.PROCESSING);
		this.metrics.taken(item);
		return item;
	}

	@Override
	public void done(T item) {
		Objects.requireNonNull(item, "item");
		if (!this.metrics.enabled()) {
			applyDone(item);
			return;
		}
		this.lock.lock();
		try {
			applyDone(item);
		}
		finally {
			this.lock.unlock();
		}
	}

	private void applyDone(T item) {
		for (;;) {
			ItemState state = this.states.get(item);
			if (state == ItemState.PROCESSING) {
				if (this.states.remove(item, ItemState.PROCESSING)) {
					finishProcessing(item, false);
					return;
				}
			}
			else if (state == ItemState.PROCESSING_DIRTY) {
				if (this.states.replace(item, ItemState.PROCESSING_DIRTY, ItemState.QUEUED)) {
					finishProcessing(item, true);
					return;
				}
			}
			else {
				return;
			}
		}
	}

	private void finishProcessing(T item, boolean requeue) {
		this.metrics.finished(item);
		int stillProcessing = this.processingCount.decrementAndGet();
		if (requeue) {
			push(item, false);
		}
		else if (stillProcessing == 0 && this.draining) {
			this.lock.lock();
			try {
				this.idle.signalAll();
			}
			finally {
				this.lock.unlock();
			}
		}
	}

	@Override
	public int len() {
		return this.queuedCount.get();
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
			while (this.draining && this.processingCount.get() > 0) {
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
			while (this.draining && this.processingCount.get() > 0 && remaining > 0) {
				remaining = this.idle.awaitNanos(remaining);
			}
			return this.processingCount.get() == 0;
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
					+ this.queuedCount.get() + " queued and " + this.processingCount.get() + " processing");
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

	/** An item's place in the queue; an idle item has none. */
	private enum ItemState {

		QUEUED, PROCESSING, PROCESSING_DIRTY

	}

	@Override
	public String toString() {
		return getClass().getSimpleName() + "[" + this.name + "]";
	}

}
