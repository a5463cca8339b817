package io.github.workqueue.core.internal;

import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.SortedMap;

import org.jspecify.annotations.Nullable;

import io.github.workqueue.core.Clock;
import io.github.workqueue.core.FairnessKeyExtractor;
import io.github.workqueue.core.RateLimitingQueue;
import io.github.workqueue.core.WorkQueue;
import io.github.workqueue.core.metrics.DropReason;
import io.github.workqueue.core.metrics.MetricsProvider;
import io.github.workqueue.core.trace.TraceCapture;
import io.github.workqueue.core.trace.TraceCarry;

/**
 * The items' states in the FIFO layer (client-go's {@code Typed} queue), with the lock
 * that guards them and every change of them that an add or a remove makes; the consumers'
 * side and the lifecycle are {@link DefaultWorkQueue}'s.
 *
 * <p>
 * <b>State.</b> One {@link QueueEntry} per item that is dirty, processing or waiting, in
 * {@link #entries}; its state bits are client-go's dirty and processing sets (see
 * {@link QueueEntry}). Queued entries are <em>ready</em>, in {@link #ready}: one FIFO
 * while every ready item has one priority and the queue has no fairness, which is
 * client-go's queue and costs nothing more, else priority levels (see
 * {@link ReadyItems}).
 *
 * <p>
 * <b>Concurrency.</b> One protocol, with metrics on or off: every change of state happens
 * under {@link #lock}, one per queue and shared with the layers built on this class, and
 * every read but four is made under it too. The exceptions:
 * <ul>
 * <li>A duplicate add is answered without the lock. It looks the item's entry up in
 * {@link #entries} (a lookup that misses, as one without the lock may, sends the add to
 * the lock; see {@link EntryTable}), reads its state, {@linkplain QueueEntry#confirm(int)
 * confirms} it with a compare-and-set, then reads {@link #shuttingDown}; it takes effect
 * at the compare-and-set, where the item was dirty and not waiting and the queue was not
 * yet shutting down (shutdown is never undone), so the add changes nothing, as in the
 * sequential model. A locked operation takes effect at its first write of an entry state
 * or of {@link #shuttingDown} (or at its lock acquisition if it writes neither); a locked
 * operation writes at most one entry state apart from promotions of due items, which the
 * model attributes to the passing of time, and a shutdown sets its flag before it touches
 * any entry. So what a duplicate add sees is always the state of the model at its
 * compare-and-set. For that reason {@link #len()} is read under the lock: a duplicate add
 * can return while the add it duplicates is still inside the lock.
 * <li>{@link #isShuttingDown()} reads the volatile flag.
 * <li>A processing reads its item's trace contexts (see {@link AddTraceStore}).
 * <li>The metrics' scan for the oldest ready item reads entry states and add times (see
 * {@link TimedQueueEntry}) without the lock; it changes nothing and reports a gauge.
 * </ul>
 * An add that carries a trace context never takes the lock-free path: it keeps the
 * context in {@link #traces} under the lock, so that the take, under the lock too, hands
 * every context of the adds before it to the processing and none of those after it. The
 * take of an item is an atomic read-modify-write of its entry state, which reads any
 * confirmation made before it (see {@link QueueEntry}): what a thread wrote before an
 * add, deduplicated or not, happens-before the processing that the add caused or joined.
 * Invariants, under the lock:
 * <ul>
 * <li>an entry is in {@link #ready} exactly when it is dirty and not processing, and at
 * most once;
 * <li>an entry is in {@link #entries} exactly when its state is not empty;
 * <li>{@link #waits}' count of processing items is the number of processing entries; with
 * metrics on, they are also in {@link DefaultWorkQueue}'s {@code processing};
 * <li>once {@link #shuttingDown} is set no item becomes dirty and nothing waits.
 * </ul>
 * Histograms are recorded after the lock is released. The lock is a monitor rather than a
 * {@code ReentrantLock}: its short spin before parking keeps a dedup storm (producers
 * adding idle keys while a consumer takes and finishes them) from turning every hand-over
 * of the lock into a park and an unpark. Blocked consumers and drains wait on the
 * monitor; {@link QueueWaits} states whom each change wakes.
 *
 * @param <T> the item type
 */
abstract class ItemStates<T> implements WorkQueue<T> {

	/** An add that made the item dirty. */
	static final int ADDED = 1;

	/** An add of an item that was dirty already. */
	static final int UNCHANGED = 0;

	/** An add refused because the queue is shutting down. */
	static final int DROPPED = -1;

	private final String name;

	final Clock clock;

	final QueueMetrics metrics;

	/** The queue's one lock (a monitor), shared with the layers built on this class. */
	final Object lock = new Object();

	/** Written under {@code lock}, read without it by a duplicate add and the gauges. */
	final EntryTable<T> entries = new EntryTable<>();

	/** Guarded by {@code lock}: the ready entries, in the order they leave. */
	final ReadyItems<T> ready;

	/** The priority of adds that do not name one. */
	final int defaultPriority;

	private final @Nullable FairnessKeyExtractor<? super T> fairness;

	/** Reads each add's trace context; null: no tracing, nothing read or kept. */
	final @Nullable TraceCapture traceCapture;

	/** The adds' trace contexts, with a capture; see there. */
	final @Nullable AddTraceStore<T> traces;

	/** Guarded by {@code lock}: the waits on it and the counts they depend on. */
	final QueueWaits waits = new QueueWaits(this.lock);

	/** Written under {@code lock}, by a shutdown only. */
	volatile boolean shuttingDown;

	ItemStates(String name, Clock clock, MetricsProvider metricsProvider, int defaultPriority,
			@Nullable FairnessKeyExtractor<? super T> fairness, @Nullable TraceCapture traceCapture) {
		this.name = name;
		this.traceCapture = traceCapture;
		this.traces = (traceCapture != null) ? new AddTraceStore<>() : null;
		this.defaultPriority = defaultPriority;
		this.fairness = fairness;
		this.ready = new ReadyItems<>(defaultPriority, fairness != null, this::fairnessKeysOf);
		this.clock = clock;
		this.metrics = QueueMetrics.create(name, metricsProvider, defaultPriority);
	}

	@Override
	public final String name() {
		return this.name;
	}

	@Override
	public void add(T item) {
		Objects.requireNonNull(item, "item");
		String trace = TraceCarry.ofAdd(this.traceCapture);
		QueueEntry<T> seen = (trace == null) ? this.entries.find(item) : null;
		if (seen != null) {
			int state = seen.state();
			if ((state & (QueueEntry.DIRTY | QueueEntry.WAITING | QueueEntry.REMOVED)) == QueueEntry.DIRTY
					&& seen.priority >= this.defaultPriority && seen.confirm(state) && !this.shuttingDown) {
				return;
			}
		}
		int outcome;
		synchronized (this.lock) {
			promoteDueLocked();
			outcome = addLocked(item, this.defaultPriority);
			traceLocked(item, trace);
		}
		recordAdd(outcome);
	}

	/**
	 * Keeps an add's trace context for the item's next processing, after the add itself
	 * and under the same lock; nothing if the add carried none or was dropped.
	 * @param item the item added
	 * @param trace the add's context, or null
	 */
	final void traceLocked(T item, @Nullable String trace) {
		AddTraceStore<T> store = this.traces;
		if (trace != null && store != null && !this.shuttingDown) {
			store.added(item, trace);
		}
	}

	/**
	 * Records the outcome of {@link #addLocked(Object, int)} after the lock is released.
	 * @param outcome what it returned
	 */
	final void recordAdd(int outcome) {
		if (outcome == ADDED) {
			this.metrics.added(1);
		}
		else if (outcome == DROPPED) {
			this.metrics.dropped(DropReason.ADD_AFTER_SHUTDOWN, 1);
		}
	}

	/**
	 * The add, under the lock.
	 * @param item the item
	 * @param priority the add's priority
	 * @return {@link #ADDED} if the item became dirty, {@link #UNCHANGED} if it was dirty
	 * already, {@link #DROPPED} if the queue is shutting down
	 */
	final int addLocked(T item, int priority) {
		if (this.shuttingDown) {
			return DROPPED;
		}
		QueueEntry<T> entry = this.entries.find(item);
		if (entry == null) {
			QueueEntry<T> fresh = newEntry(item, QueueEntry.DIRTY, priority);
			this.entries.insert(fresh);
			becameDirtyLocked(fresh);
			enqueueLocked(fresh);
			return ADDED;
		}
		return addEntryLocked(entry, priority) ? ADDED : UNCHANGED;
	}

	/**
	 * The add of an item that has an entry, under the lock: raises its priority,
	 * supersedes its waiting entry, then marks it dirty and queues it unless it is
	 * processing.
	 * @param entry the item's entry
	 * @param priority the add's priority
	 * @return true if the item became dirty
	 */
	final boolean addEntryLocked(QueueEntry<T> entry, int priority) {
		raiseLocked(entry, priority);
		int state = entry.state();
		if ((state & QueueEntry.WAITING) != 0) {
			cancelWaitingLocked(entry);
			state &= ~QueueEntry.WAITING;
		}
		if ((state & QueueEntry.DIRTY) != 0) {
			entry.set(state);
			return false;
		}
		entry.set(state | QueueEntry.DIRTY);
		becameDirtyLocked(entry);
		if ((state & QueueEntry.PROCESSING) == 0) {
			enqueueLocked(entry);
		}
		return true;
	}

	@Override
	public boolean remove(T item) {
		Objects.requireNonNull(item, "item");
		boolean removed;
		synchronized (this.lock) {
			promoteDueLocked();
			QueueEntry<T> entry = this.entries.find(item);
			removed = entry != null && removeLocked(entry);
		}
		if (removed) {
			this.metrics.dropped(DropReason.REMOVED, 1);
		}
		return removed;
	}

	/**
	 * The remove, under the lock: drops the item's waiting entry, takes it out of the
	 * ready items if it is queued, and clears its dirty bit (a processing item is then
	 * not queued again at its done).
	 * @return whether it changed the item's state
	 */
	private boolean removeLocked(QueueEntry<T> entry) {
		int state = entry.state();
		int after = state;
		if ((state & QueueEntry.WAITING) != 0) {
			cancelWaitingLocked(entry);
			after &= ~QueueEntry.WAITING;
		}
		if ((state & QueueEntry.DIRTY) != 0) {
			after &= ~QueueEntry.DIRTY;
			if ((state & QueueEntry.PROCESSING) == 0) {
				this.ready.remove(entry);
			}
			if (this.metrics.enabled()) {
				this.metrics.depthChanged(entry.priority, -1);
			}
		}
		if (after == state) {
			return false;
		}
		// The removed adds cause no processing: their traces go with them.
		if (this.traces != null) {
			this.traces.removed(entry.item);
		}
		if (after == 0) {
			releaseLocked(entry);
		}
		else {
			entry.set(after);
		}
		return true;
	}

	/**
	 * Gives an entry the priority of an add, if that is higher; a ready entry moves to
	 * its new priority, keeping the moment it became ready. Under the lock.
	 * @param entry the item's entry
	 * @param priority the add's priority
	 */
	final void raiseLocked(QueueEntry<T> entry, int priority) {
		int from = entry.priority;
		if (priority <= from) {
			return;
		}
		entry.priority = priority;
		int state = entry.state();
		if ((state & QueueEntry.DIRTY) != 0 && this.metrics.enabled()) {
			this.metrics.depthChanged(from, -1);
			this.metrics.depthChanged(priority, 1);
		}
		if ((state & (QueueEntry.DIRTY | QueueEntry.PROCESSING)) != QueueEntry.DIRTY) {
			return;
		}
		this.ready.raised(entry, from);
	}

	/** {@link RateLimitingQueue#fairnessKeysOf}, for the layers built on this class. */
	public List<String> fairnessKeysOf(T item) {
		return FairnessKeyExtractor.keysOf(this.fairness, item, this.name);
	}

	/** {@link RateLimitingQueue#defaultPriority()}. */
	public int defaultPriority() {
		return this.defaultPriority;
	}

	/**
	 * Makes an item's entry, with the timestamps only when metrics are on.
	 * @param item the item
	 * @param state its first state
	 * @param priority its first priority
	 * @return the entry, not yet in the map
	 */
	final QueueEntry<T> newEntry(T item, int state, int priority) {
		QueueEntry<T> entry = this.metrics.enabled() ? new TimedQueueEntry<>(item, state, priority)
				: new QueueEntry<>(item, state, priority);
		if (this.fairness != null) {
			// Asked before the entry is published, so that an extractor that fails
			// changes nothing.
			entry.slot = new ReadySlot<>(entry, fairnessKeysOf(item));
		}
		return entry;
	}

	private void becameDirtyLocked(QueueEntry<T> entry) {
		if (this.metrics.enabled()) {
			((TimedQueueEntry<T>) entry).addedAt(this.clock.nanoTime());
			this.metrics.depthChanged(entry.priority, 1);
		}
	}

	final void enqueueLocked(QueueEntry<T> entry) {
		this.ready.add(entry);
		this.waits.itemQueued();
	}

	/** {@link RateLimitingQueue#lenByFairnessKey()}. */
	public Map<String, Integer> lenByFairnessKey() {
		synchronized (this.lock) {
			promoteDueLocked();
			return this.ready.sizeByFirstKey();
		}
	}

	/** {@link RateLimitingQueue#lenByPriority()}. */
	public SortedMap<Integer, Integer> lenByPriority() {
		synchronized (this.lock) {
			promoteDueLocked();
			return this.ready.sizeByPriority();
		}
	}

	/**
	 * Removes the item's waiting entry from where it waits, if it is still there; layers
	 * that keep waiting entries override it. Under the lock.
	 * @param entry an entry whose state has {@link QueueEntry#WAITING}
	 */
	void cancelWaitingLocked(QueueEntry<T> entry) {
		throw new IllegalStateException("waiting entry in a queue without delays: " + entry.item);
	}

	/**
	 * Moves the waiting items whose time has come into the queue; layers that keep
	 * waiting items override it. Every operation calls it first, under the lock, so the
	 * queue is always as if every due item had been added when it became due.
	 */
	void promoteDueLocked() {
	}

	/**
	 * Removes the entry of an item whose state became empty. Under the lock.
	 * @param entry the entry, whose state is empty
	 */
	final void releaseLocked(QueueEntry<T> entry) {
		entry.set(QueueEntry.REMOVED);
		this.entries.remove(entry);
	}

}
