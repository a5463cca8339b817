package io.github.workqueue.core.internal;

import org.jspecify.annotations.Nullable;

import io.github.workqueue.core.Clock;

/**
 * Recomputes a queue's periodic gauges on the queue's clock, as client-go's
 * unfinished-work loop does: every period, the summed and the longest age of the items
 * being processed (read under the queue's lock from its {@link ProcessingList}), and the
 * age of the oldest ready item (scanned without the lock, see
 * {@link #oldestReadyAge(long)}). Runs only with metrics on, from the queue's
 * construction to its shutdown.
 *
 * <p>
 * <b>Concurrency.</b> Each run schedules the next one; the timer is volatile. Shutdown
 * sets the queue's flag before it cancels the timer, and scheduling writes the timer
 * before it reads the flag: one of the two sees the other, so no timer outlives the
 * shutdown.
 *
 * @param <T> the item type
 */
final class UnfinishedWorkGauges<T> {

	private final DefaultWorkQueue<T> queue;

	private final ProcessingList<T> processing;

	private final long periodNanos;

	private volatile Clock.@Nullable Timer timer;

	UnfinishedWorkGauges(DefaultWorkQueue<T> queue, ProcessingList<T> processing, long periodNanos) {
		this.queue = queue;
		this.processing = processing;
		this.periodNanos = periodNanos;
	}

	void start() {
		schedule();
	}

	/** After the queue's shutdown flag is set. */
	void stop() {
		Clock.Timer scheduled = this.timer;
		if (scheduled != null) {
			scheduled.cancel();
		}
	}

	private void schedule() {
		Clock clock = this.queue.clock;
		Clock.Timer scheduled = clock.schedule(Nanos.saturatedAdd(clock.nanoTime(), this.periodNanos), this::update);
		this.timer = scheduled;
		if (this.queue.isShuttingDown()) {
			scheduled.cancel();
		}
	}

	private void update() {
		long total = 0;
		long longest = 0;
		synchronized (this.queue.lock) {
			if (this.queue.isShuttingDown()) {
				return;
			}
			long now = this.queue.clock.nanoTime();
			for (TimedQueueEntry<T> entry = this.processing.head(); entry != null; entry = entry.nextProcessing) {
				long age = now - entry.startedAt;
				total += age;
				longest = Math.max(longest, age);
			}
		}
		this.queue.metrics.unfinishedWork(total, longest);
		this.queue.metrics.oldestReady(oldestReadyAge(this.queue.clock.nanoTime()));
		schedule();
	}

	/**
	 * How long the oldest ready item has waited since it became dirty; 0 if none. Read
	 * without the lock, so that a long queue does not hold up producers and consumers
	 * while it is scanned (a pass over the entries each period): an item that changes
	 * state during the scan may be missed or counted, as a gauge read a moment earlier or
	 * later would.
	 */
	private long oldestReadyAge(long now) {
		long[] oldest = { Long.MAX_VALUE };
		this.queue.entries.forEach((entry) -> {
			if ((entry.state() & (QueueEntry.DIRTY | QueueEntry.PROCESSING)) == QueueEntry.DIRTY) {
				long addedAt = ((TimedQueueEntry<T>) entry).addedAt();
				if (addedAt != TimedQueueEntry.NO_TIME) {
					oldest[0] = Math.min(oldest[0], addedAt);
				}
			}
		});
		return (oldest[0] == Long.MAX_VALUE) ? 0 : Math.max(0, now - oldest[0]);
	}

}
