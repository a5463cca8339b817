package io.github.workqueue.redis.internal.batch;

import io.github.workqueue.core.internal.Nanos;
import java.util.ArrayList;
import java.util.List;

/**
 * What the next batch carries and when: which shards' pending requests may go now, which
 * shard the waiting takers' lease ask goes to, and how long the sender may stay idle when
 * nothing may go. It decides only; the state it reads and the parts it takes belong to
 * the {@link BatchState} that made it.
 *
 * <p>
 * <b>Concurrency.</b> Not thread-safe: every method is called under the owning
 * {@link BatchState}'s monitor, which guards all the state it reads and changes.
 */
final class BatchPlanner {

	private final PendingRequests pending;

	private final LeaseAsks asks;

	private final LeaseAheadBuffer buffer;

	private final SentParts sentParts;

	/** A shard's part of the next batch, with the takers it asks leases for. */
	record Part(ShardBatch part, List<Taker> takers) {
	}

	BatchPlanner(PendingRequests pending, LeaseAsks asks, LeaseAheadBuffer buffer, SentParts sentParts) {
		this.pending = pending;
		this.asks = asks;
		this.buffer = buffer;
		this.sentParts = sentParts;
	}

	/** Whether the next batch would carry anything. */
	boolean sendable(long now) {
		for (int shard = 0; shard < this.sentParts.shards(); shard++) {
			if (this.sentParts.isFree(shard) && this.pending.sendable(shard, now)) {
				return true;
			}
		}
		return askShard(now, false) >= 0;
	}

	/**
	 * The shard the takers' lease ask goes to now, or -1 if none is due or free: from the
	 * turn on, the first shard that may have one more part on its way and has no backoff.
	 * @param batchGoes whether a batch is made anyway: then the waiting takers are asked
	 * for in it even before their poll is due, as the ask costs the round trip nothing
	 */
	private int askShard(long now, boolean batchGoes) {
		boolean due = this.asks.due(now, batchGoes) || this.buffer.refillDue(now, this.asks.isShutDown());
		if (!due || this.asks.awaitsAnswer(now)) {
			return -1;
		}
		int count = this.sentParts.shards();
		for (int i = 0; i < count; i++) {
			int shard = (this.asks.turn() + i) % count;
			if (this.sentParts.isFree(shard) && this.pending.retryDue(shard, now)) {
				return shard;
			}
		}
		return -1;
	}

	/**
	 * How long the sender may stay idle at most: until a retry's time, the takers' poll,
	 * an ask's patience or a sent part's deadline, or {@code Long.MAX_VALUE} for none; a
	 * request, a landing or a hint ends it sooner.
	 */
	long idleNanos(long now) {
		long wakeAt = now + Long.MAX_VALUE / 2;
		boolean timed = false;
		boolean takers = this.asks.any();
		for (int shard = 0; shard < this.sentParts.shards(); shard++) {
			if (this.sentParts.onItsWay(shard)) {
				wakeAt = this.sentParts.earliestDeadline(shard, wakeAt);
				timed = true;
			}
			else if (!this.pending.retryDue(shard, now) && (this.pending.hasDones(shard) || takers)) {
				wakeAt = Nanos.earlier(wakeAt, this.pending.retryAt(shard));
				timed = true;
			}
		}
		if (!this.asks.isAsking() && this.buffer.refillWaits(now)) {
			// The buffer is half empty and its last ask was short: asked again later.
			wakeAt = Nanos.earlier(wakeAt, this.buffer.refillAt());
			timed = true;
		}
		if (takers) {
			wakeAt = this.asks.wakeAt(now, wakeAt);
			timed = true;
		}
		return timed ? Math.max(1, wakeAt - now) : Long.MAX_VALUE;
	}

	/** Takes what the next batch carries, one part per shard. */
	List<Part> nextBatch(long now) {
		// Asked before the hint is spent: the ask is due because of it.
		int askShard = askShard(now, true);
		this.asks.batchMade();
		List<Taker> included = List.of();
		int extras = 0;
		if (askShard >= 0) {
			included = this.asks.askOf(askShard, ShardBatch.MOST_PER_PART);
			extras = this.buffer.ask(included.size(), ShardBatch.MOST_PER_PART - included.size(),
					this.asks.isShutDown());
		}
		List<Part> parts = new ArrayList<>();
		for (int shard = 0; shard < this.sentParts.shards(); shard++) {
			if (!this.sentParts.isFree(shard)) {
				continue;
			}
			List<BatchRequest.Add> shardAdds = this.pending.takeAdds(shard);
			List<BatchRequest.Done> shardDones = this.pending.takeDones(shard, now);
			List<Taker> shardTakers = (shard == askShard) ? included : List.of();
			int wanted = (shard == askShard) ? shardTakers.size() + extras : 0;
			if (!shardAdds.isEmpty() || !shardDones.isEmpty() || wanted > 0) {
				parts.add(new Part(new ShardBatch(shard, shardAdds, shardDones, wanted), shardTakers));
			}
		}
		return parts;
	}

}
