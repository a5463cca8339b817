package io.github.workqueue.redis.internal.batch;

import io.github.workqueue.core.internal.Nanos;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ConcurrentLinkedQueue;

import org.jspecify.annotations.Nullable;

/**
 * The parts of one instance's batches on their way to Redis, at most
 * {@link #MOST_PER_SHARD} per shard, and those that landed (answered, failed or timed
 * out) and wait for the sender to read them. A sent part stays on its way until it is
 * read; while a shard has that many, its next part gathers.
 *
 * <p>
 * Two per shard, not one: the requests made while a part is on its way (the adds of the
 * producers its predecessor answered, the dones of the workers it served) leave at once
 * in a second part rather than wait for the first to be answered, so that a producer that
 * waits for its add waits about one round trip, not up to two. Redis runs one
 * connection's commands in the order sent, so the second part runs after the first, as it
 * would have after the first was read; an add that must follow its thread's done without
 * waiting still goes in a later part than that done ({@link PendingRequests}). A part
 * that a server lacking the library refused goes again ({@link #sentAgain}), and then the
 * shard takes no new part until it has none on its way: the parts that were on their way
 * with it go again after it, in order ({@link InOrderExecutor}), and the next new part
 * after them. Measured in docs/benchmarks.md ("Two parts on their way").
 *
 * <p>
 * <b>Concurrency.</b> The parts on their way are guarded by the owning
 * {@link BatchState}'s monitor. The landed sent parts are a concurrent queue: a Lettuce
 * thread adds to it without the monitor ({@link #landed}), each sent part once, by
 * winning its {@link SentPart#handOver}.
 */
final class SentParts {

	/** How many parts a shard may have on their way at once. */
	static final int MOST_PER_SHARD = 2;

	/** Per shard, its parts on their way; a free slot is {@code null}. */
	private final @Nullable SentPart[][] onTheirWay;

	/**
	 * Per shard: a part went again since the shard last had none on its way, so it takes
	 * no new part until it has none.
	 */
	private final boolean[] mending;

	private final ConcurrentLinkedQueue<SentPart> landed = new ConcurrentLinkedQueue<>();

	SentParts(int shards) {
		this.onTheirWay = new SentPart[shards][MOST_PER_SHARD];
		this.mending = new boolean[shards];
	}

	int shards() {
		return this.onTheirWay.length;
	}

	/** Whether the shard has a part on its way. */
	boolean onItsWay(int shard) {
		for (SentPart sentPart : this.onTheirWay[shard]) {
			if (sentPart != null) {
				return true;
			}
		}
		return false;
	}

	/**
	 * The earliest deadline of the shard's parts on their way, if earlier than
	 * {@code wakeAt}, else {@code wakeAt}.
	 */
	long earliestDeadline(int shard, long wakeAt) {
		long earliest = wakeAt;
		for (SentPart sentPart : this.onTheirWay[shard]) {
			if (sentPart != null) {
				earliest = Nanos.earlier(earliest, sentPart.deadlineNanos);
			}
		}
		return earliest;
	}

	/** Whether the shard may have one more part on its way. */
	boolean isFree(int shard) {
		if (this.mending[shard]) {
			return false;
		}
		for (SentPart sentPart : this.onTheirWay[shard]) {
			if (sentPart == null) {
				return true;
			}
		}
		return false;
	}

	/**
	 * A part went again (a second try), in the slot its first try left when it was read:
	 * the shard is mending until it has no part on its way.
	 */
	void sentAgain(SentPart second) {
		this.mending[second.shard()] = true;
		sent(second);
	}

	/**
	 * A sent part left (or could not be sent: then it landed at once). Called only for a
	 * shard with a free slot: one that {@link #isFree}, or, from {@link #sentAgain}, the
	 * slot its first try left.
	 */
	void sent(SentPart sentPart) {
		SentPart[] slots = this.onTheirWay[sentPart.shard()];
		for (int i = 0; i < slots.length; i++) {
			if (slots[i] == null) {
				slots[i] = sentPart;
				break;
			}
		}
		if (!sentPart.wasSent()) {
			this.landed.add(sentPart);
		}
	}

	/** A landed sent part is being read: its slot is free for another part. */
	void read(SentPart sentPart) {
		SentPart[] slots = this.onTheirWay[sentPart.shard()];
		for (int i = 0; i < slots.length; i++) {
			if (slots[i] == sentPart) {
				slots[i] = null;
				break;
			}
		}
		if (!onItsWay(sentPart.shard())) {
			this.mending[sentPart.shard()] = false;
		}
	}

	/**
	 * A sent part's reply came or failed; called without the monitor.
	 * @return whether it was handed over now (a sent part is handed over once)
	 */
	boolean landed(SentPart sentPart) {
		if (sentPart.handOver()) {
			this.landed.add(sentPart);
			return true;
		}
		return false;
	}

	/**
	 * Gives up on the sent parts past their deadline that have not landed: each lands as
	 * a timeout.
	 */
	void timeOutOverdue(long now) {
		for (SentPart[] slots : this.onTheirWay) {
			for (SentPart sentPart : slots) {
				if (sentPart != null && now - sentPart.deadlineNanos >= 0 && sentPart.handOver()) {
					sentPart.timeOut();
					this.landed.add(sentPart);
				}
			}
		}
	}

	/** Whether some shard may have one more part on its way. */
	boolean anyFree() {
		for (int shard = 0; shard < this.onTheirWay.length; shard++) {
			if (isFree(shard)) {
				return true;
			}
		}
		return false;
	}

	boolean anyLanded() {
		return !this.landed.isEmpty();
	}

	/** The sent parts that landed, for the sender to read, each once. */
	List<SentPart> takeLanded() {
		List<SentPart> read = new ArrayList<>();
		for (SentPart sentPart; (sentPart = this.landed.poll()) != null;) {
			read.add(sentPart);
		}
		return read;
	}

	/** Whether a sent part is on its way or waits to be read. */
	boolean any() {
		for (int shard = 0; shard < this.onTheirWay.length; shard++) {
			if (onItsWay(shard)) {
				return true;
			}
		}
		return !this.landed.isEmpty();
	}

}
