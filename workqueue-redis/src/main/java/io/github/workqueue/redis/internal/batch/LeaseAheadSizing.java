package io.github.workqueue.redis.internal.batch;

/**
 * How many leases one instance keeps taken ahead of its workers now (adaptive prefetch):
 * between 0 and the bound set ({@code prefetch}), as many as its workers use while a
 * refill is on its way to Redis and back, and no more, since each buffered lease is one
 * item the queue's order (priority, fairness) may be served late by.
 *
 * <p>
 * It judges by windows of {@value #WINDOW} takes. A take <em>missed</em> when it found
 * the buffer empty although its thread came back for it sooner than two round trips after
 * its previous item: that worker waits for Redis longer than it works, and a buffer would
 * have spared the wait. A window with at least {@value #MISSES_TO_GROW} misses doubles
 * the size (from 0 to 1); a window with none, whose takes from the buffer found leases
 * that had waited there longer than {@value #IDLE_ROUND_TRIPS} round trips on average,
 * halves it (1 to 0): the buffer holds more than the workers use before the refill lands.
 * Workers slower than a round trip never miss, so their instance keeps the order exact; a
 * burst of quick workers grows the buffer in a few windows. The round trip is a moving
 * average of the batches' answered calls.
 *
 * <p>
 * <b>Concurrency.</b> Not thread-safe: owned by {@link LeaseAheadBuffer}, under the
 * {@link Batcher}'s monitor.
 *
 * <p>
 * Public only for the queue's classes one package up; not an API.
 */
public final class LeaseAheadSizing {

	/** Takes per judgement. */
	static final int WINDOW = 16;

	/** Misses in a window that double the size. */
	static final int MISSES_TO_GROW = 2;

	/** Round trips a buffered lease waits, on average, beyond which the size halves. */
	static final int IDLE_ROUND_TRIPS = 8;

	/**
	 * A round trip longer than this (an outage's timeout) says nothing of the usual one.
	 */
	private static final long LONGEST_ROUND_TRIP_NANOS = 100_000_000L;

	/** The bound: {@code prefetch}. */
	private final int most;

	/** Whether the size moves; if not, it stays at the bound. */
	private final boolean adaptive;

	private int size;

	/** The moving average of a batch call's round trip, 0 before the first. */
	private long roundTripNanos;

	private int takes;

	private int misses;

	private int hits;

	/** The time in the buffer of the leases this window's takes found there. */
	private long waitedNanos;

	/**
	 * @param most the bound
	 * @param adaptive whether the size moves between 0 and the bound, or stays at it
	 */
	public LeaseAheadSizing(int most, boolean adaptive) {
		this.most = most;
		this.adaptive = adaptive;
		this.size = adaptive ? 0 : most;
	}

	/** The leases to keep ahead now: between 0 and the bound. */
	int size() {
		return this.size;
	}

	/** A batch call was answered this long after it was sent. */
	void roundTrip(long nanos) {
		if (nanos < 0 || nanos > LONGEST_ROUND_TRIP_NANOS) {
			return;
		}
		this.roundTripNanos = (this.roundTripNanos == 0) ? nanos
				: this.roundTripNanos + (nanos - this.roundTripNanos) / 8;
	}

	/**
	 * A take found the buffer empty.
	 * @param gapNanos how long its thread had been away since its previous take returned
	 * an item, or -1 if it had none lately
	 */
	void tookNothing(long gapNanos) {
		if (quick(gapNanos)) {
			this.misses++;
		}
		counted();
	}

	/**
	 * A take found a lease in the buffer that had waited there {@code waitedNanos}, and
	 * left {@code left} behind it: below a quarter of the size, for a quick worker, it
	 * counts as a miss too, as the refill asked at half came too late to keep the next
	 * takes from running dry.
	 * @param gapNanos as for {@link #tookNothing}
	 */
	void tookBuffered(long waitedNanos, long gapNanos, int left) {
		this.hits++;
		this.waitedNanos += waitedNanos;
		if (left < this.size / 4 && quick(gapNanos)) {
			this.misses++;
		}
		counted();
	}

	/** Whether a worker came back sooner than two round trips after its last item. */
	private boolean quick(long gapNanos) {
		return gapNanos >= 0 && gapNanos < 2 * this.roundTripNanos;
	}

	private void counted() {
		if (!this.adaptive || ++this.takes < WINDOW) {
			return;
		}
		if (this.misses >= MISSES_TO_GROW) {
			this.size = Math.min(this.most, Math.max(1, this.size * 2));
		}
		else if (this.misses == 0 && this.hits > 0
				&& this.waitedNanos / this.hits > IDLE_ROUND_TRIPS * this.roundTripNanos) {
			this.size /= 2;
		}
		this.takes = 0;
		this.misses = 0;
		this.hits = 0;
		this.waitedNanos = 0;
	}

}
