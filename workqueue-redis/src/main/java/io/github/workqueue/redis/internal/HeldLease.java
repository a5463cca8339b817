package io.github.workqueue.redis.internal;

import java.time.Instant;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;

import io.github.workqueue.core.trace.AddTraces;

import io.github.workqueue.redis.DoneResult;
import io.github.workqueue.redis.Lease;
import org.jspecify.annotations.Nullable;

import io.github.workqueue.redis.internal.batch.Renewable;

/**
 * A lease this instance was granted, for one processing: the thread that took the item.
 * The item, token, taker and durations never change; the deadline, the lost flag and the
 * last confirmation are written by the renewer; {@code ended} is set once, when the lease
 * leaves {@link HeldLeases} (done, given back at shutdown, or dropped because its taker
 * died). {@code outcome} is completed once, by the first done's final outcome or the
 * give-back. Thread-safe: the mutable fields are volatile and each has one writer at a
 * time.
 */
final class HeldLease implements Lease, Renewable {

	/** The queue that granted the lease. */
	final Object grantor;

	final Object item;

	final String encoded;

	final long token;

	/** The trace contexts of the adds the processing serves, or null for none. */
	final @Nullable AddTraces traces;

	/** When the item was taken, for the work duration. */
	final long takenNanos;

	/** The thread whose processing the lease belongs to. */
	final Thread taker;

	/** How long the lease is believed live after a confirmation, margin deducted. */
	private final long liveNanos;

	/** {@link System#nanoTime()} when the last answered grant or renewal was sent. */
	volatile long confirmedNanos;

	volatile long deadlineMicros;

	volatile boolean lost;

	volatile boolean ended;

	/** Set once, when this instance gave the lease back at shutdown. */
	volatile boolean givenBack;

	/** The final outcome of the first done, or REJECTED once given back. */
	final CompletableFuture<DoneResult> outcome = new CompletableFuture<>();

	/**
	 * @param confirmedNanos when the grant (or the last renewal, for a lease taken ahead)
	 * was sent
	 * @param takenNanos when the thread took the item
	 * @param traces the trace contexts of the adds the processing serves, or null
	 */
	HeldLease(Object grantor, Object item, String encoded, long token, long deadlineMicros, long confirmedNanos,
			long takenNanos, Thread taker, long leaseNanos, @Nullable AddTraces traces) {
		this.grantor = grantor;
		this.traces = traces;
		this.item = item;
		this.encoded = encoded;
		this.token = token;
		this.deadlineMicros = deadlineMicros;
		this.takenNanos = takenNanos;
		this.confirmedNanos = confirmedNanos;
		this.taker = taker;
		this.liveNanos = leaseNanos - leaseNanos / 10;
	}

	@Override
	public long token() {
		return this.token;
	}

	@Override
	public String encoded() {
		return this.encoded;
	}

	@Override
	public void renewed(long deadlineMicros, long sentNanos) {
		this.deadlineMicros = deadlineMicros;
		this.confirmedNanos = sentNanos;
	}

	@Override
	public boolean expired() {
		if (this.lost || this.ended) {
			return false;
		}
		this.lost = true;
		return true;
	}

	@Override
	public Instant expiresAt() {
		long micros = this.deadlineMicros;
		return Instant.ofEpochSecond(micros / 1_000_000, (micros % 1_000_000) * 1000);
	}

	@Override
	public boolean lost() {
		return this.lost;
	}

	@Override
	public boolean isLive() {
		return !this.lost && !this.ended && System.nanoTime() - this.confirmedNanos < this.liveNanos;
	}

	@Override
	public CompletionStage<DoneResult> outcome() {
		return this.outcome.minimalCompletionStage();
	}

	@Override
	public String toString() {
		return "Lease[" + this.encoded + ", token=" + this.token + ", taker=" + this.taker.getName()
				+ (this.lost ? ", lost" : "") + (this.ended ? ", ended" : "") + "]";
	}

}
