package io.github.workqueue.redis.internal;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ConcurrentLinkedQueue;

import org.jspecify.annotations.Nullable;

/**
 * The parts of one instance's batches on their way to Redis, at most one per shard, and
 * those that landed (answered, failed or timed out) and wait for the sender to read them.
 * A sent part stays a shard's sent part until it is read, so that the shard's next part
 * gathers meanwhile.
 *
 * <p>
 * <b>Concurrency.</b> The shards' sent parts are guarded by the owning
 * {@link BatchState}'s monitor. The landed sent parts are a concurrent queue: a Lettuce
 * thread adds to it without the monitor ({@link #landed}), each sent part once, by
 * winning its {@link SentPart#handOver}.
 */
final class SentParts {

	private final @Nullable SentPart[] flying;

	private final ConcurrentLinkedQueue<SentPart> landed = new ConcurrentLinkedQueue<>();

	SentParts(int shards) {
		this.flying = new SentPart[shards];
	}

	int shards() {
		return this.flying.length;
	}

	/** The shard's sent part, or {@code null} if it has none. */
	@Nullable SentPart of(int shard) {
		return this.flying[shard];
	}

	boolean isFree(int shard) {
		return this.flying[shard] == null;
	}

	/** A sent part left (or could not be sent: then it landed at once). */
	void sent(SentPart sentPart) {
		this.flying[sentPart.shard()] = sentPart;
		if (!sentPart.wasSent()) {
			this.landed.add(sentPart);
		}
	}

	/** A landed sent part is being read: its shard is free for its next part. */
	void read(SentPart sentPart) {
		if (this.flying[sentPart.shard()] == sentPart) {
			this.flying[sentPart.shard()] = null;
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
		for (SentPart sentPart : this.flying) {
			if (sentPart != null && now - sentPart.deadlineNanos >= 0 && sentPart.handOver()) {
				sentPart.timeOut();
				this.landed.add(sentPart);
			}
		}
	}

	/** Whether some shard has no part on its way. */
	boolean anyFree() {
		for (SentPart sentPart : this.flying) {
			if (sentPart == null) {
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
		for (SentPart sentPart : this.flying) {
			if (sentPart != null) {
				return true;
			}
		}
		return !this.landed.isEmpty();
	}

}
