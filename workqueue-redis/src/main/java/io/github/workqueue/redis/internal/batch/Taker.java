package io.github.workqueue.redis.internal.batch;

import java.util.BitSet;
import java.util.concurrent.TimeUnit;

import org.jspecify.annotations.Nullable;

/**
 * A thread waiting in {@link LeaseTakes#take}: waiting until it is served a grant or
 * cancelled (timeout, interrupt, shutdown), whichever comes first; then never again.
 * Thread-safe: its fields are guarded by its monitor, on which its thread waits.
 */
final class Taker {

	boolean waiting = true;

	/**
	 * Redis was asked for this taker and could not serve it: a batch failed, or every
	 * shard answered an ask that included it with too few leases.
	 */
	boolean tried;

	/**
	 * On a queue of several shards, those that answered an ask for this taker with too
	 * few leases; {@code null} until one did.
	 */
	private @Nullable BitSet shortShards;

	/**
	 * The thread has no time left and waits only for a batch to ask Redis for it: only
	 * then does a try wake it. A taker with time left is not woken by the batches that
	 * asked for it in vain (with many threads waiting, most asks serve few of them).
	 */
	private boolean waitsForTry;

	@Nullable Grant grant;

	synchronized void tried() {
		this.tried = true;
		if (this.waitsForTry) {
			notifyAll();
		}
	}

	/**
	 * A shard answered an ask that included this taker with too few leases: once every
	 * shard of the queue has (since this taker came), it was tried. Counting the shards
	 * per taker, not per run of short answers, keeps a get with no time left from ending
	 * before the shard that holds a ready item was asked for it (an ask made for an
	 * earlier taker may have started the run).
	 */
	synchronized void answeredShort(int shard, int shardCount) {
		if (shardCount > 1) {
			if (this.shortShards == null) {
				this.shortShards = new BitSet(shardCount);
			}
			this.shortShards.set(shard);
			if (this.shortShards.cardinality() < shardCount) {
				return;
			}
		}
		tried();
	}

	/**
	 * Whether the taker waits, some shards answered it short and others not yet: the
	 * shards asked next finish its try. A taker no ask included yet is not one (with more
	 * takers than a batch asks for, it would keep the asks going without ever being in
	 * them).
	 */
	synchronized boolean waitsPartlyTried() {
		return this.waiting && !this.tried && this.shortShards != null;
	}

	synchronized boolean isWaiting() {
		return this.waiting;
	}

	/**
	 * Gives the taker a grant if it still waits, without waking its thread: whoever
	 * claimed it calls {@link #wake} once it holds no other lock, so that the thread,
	 * woken, does not find the batch state's monitor still held by its server (it asks
	 * for that monitor at once to end its item and take the next). A thread that wakes by
	 * itself meanwhile (its timeout) finds the grant.
	 * @return whether the taker took the grant
	 */
	synchronized boolean claim(Grant served) {
		if (!this.waiting) {
			return false;
		}
		this.waiting = false;
		this.grant = served;
		return true;
	}

	/** Wakes the thread of a taker that was claimed. */
	synchronized void wake() {
		notifyAll();
	}

	synchronized void cancel() {
		this.waiting = false;
		notifyAll();
	}

	/**
	 * Waits until served or cancelled, or the timeout passed; with no time left, still
	 * until one batch asked Redis for this taker, within {@code triedBoundNanos} of the
	 * start. Leaves the taker waiting: the caller cancels it.
	 * @throws InterruptedException if interrupted while waiting
	 */
	synchronized void await(long timeoutNanos, long triedBoundNanos) throws InterruptedException {
		long start = System.nanoTime();
		while (this.waiting) {
			long waited = System.nanoTime() - start;
			long remaining = (timeoutNanos == Long.MAX_VALUE) ? Long.MAX_VALUE : timeoutNanos - waited;
			if (remaining <= 0 && (this.tried || waited >= triedBoundNanos)) {
				return;
			}
			if (remaining == Long.MAX_VALUE) {
				wait();
			}
			else if (remaining > 0) {
				TimeUnit.NANOSECONDS.timedWait(this, remaining);
			}
			else {
				// Even with no time left, one batch asks Redis for this taker, within the
				// bound.
				this.waitsForTry = true;
				TimeUnit.NANOSECONDS.timedWait(this, triedBoundNanos - waited);
			}
		}
	}

}
