package io.github.workqueue.redis.internal.shared;

import java.time.Duration;
import java.util.function.Supplier;

import io.lettuce.core.ScriptOutputType;

import io.github.workqueue.redis.internal.link.CallNumbers;
import io.github.workqueue.redis.internal.link.RedisLink;
import io.github.workqueue.redis.internal.link.Script;

/**
 * The per-item state that makes retries queue-wide: the limiter's failure counts and
 * buckets (evaluated on Redis, shared by every instance) and the failed attempts that
 * max-retries counts, each kept in the item's shard. With several shards the limiter's
 * token buckets live in the first shard: a token of each is reserved there first and the
 * item's shard uses their delays, so the whole queue keeps one rate. Thread-safe
 * (stateless).
 */
public final class SharedFailures {

	private final RedisLink link;

	private final Shards shards;

	private final LimiterSpec limiter;

	private final Supplier<String> now;

	public SharedFailures(RedisLink link, Shards shards, LimiterSpec limiter, Supplier<String> now) {
		this.link = link;
		this.shards = shards;
		this.limiter = limiter;
		this.now = now;
	}

	/**
	 * Counts a failure and waits the limiter's delay, as addAfter, at most once (see
	 * {@link RedisLink#runOnce}); returns the delay.
	 * @param trace the trace context the add carries, empty for none
	 */
	public Duration addRateLimited(String encoded, CallNumbers numbers, String trace) {
		String reserved = reservedBuckets();
		Long micros = this.link.runOnce(numbers, Script.ADD_RATE_LIMITED, ScriptOutputType.INTEGER, keysOf(encoded),
				this.now.get(), encoded, this.limiter.json(), reserved, trace);
		return Duration.ofNanos(micros * 1000);
	}

	/** The limiter's when alone: counts a failure, returns the delay. */
	Duration when(String encoded) {
		Long micros = this.link.run(Script.WHEN, ScriptOutputType.INTEGER, keysOf(encoded), this.now.get(), encoded,
				this.limiter.json(), reservedBuckets());
		return Duration.ofNanos(micros * 1000);
	}

	/** The limiter, as the scripts read it. */
	public String limiterJson() {
		return this.limiter.json();
	}

	public void forget(String encoded) {
		this.link.hashDelete(shardOf(encoded).failures(), encoded);
	}

	public int numRequeues(String encoded) {
		if (!this.limiter.countsFailures()) {
			return 0;
		}
		String count = this.link.hashGet(shardOf(encoded).failures(), encoded);
		return (count != null) ? Integer.parseInt(count) : 0;
	}

	public int failedAttempts(String encoded) {
		String count = this.link.hashGet(shardOf(encoded).failedAttempts(), encoded);
		return (count != null) ? Integer.parseInt(count) : 0;
	}

	public int recordFailedAttempt(String encoded) {
		return (int) Math.min(Integer.MAX_VALUE, this.link.hashIncrement(shardOf(encoded).failedAttempts(), encoded));
	}

	/**
	 * Clears the failed attempts, and with {@code forget} the limiter's count too, in one
	 * round trip.
	 */
	public void clearFailedAttempts(String encoded, boolean forget) {
		if (forget) {
			this.link.hashDeletePipelined(encoded, shardOf(encoded).failedAttempts(), shardOf(encoded).failures());
		}
		else {
			this.link.hashDelete(shardOf(encoded).failedAttempts(), encoded);
		}
	}

	/**
	 * The buckets' delays reserved in the first shard (JSON), or empty when the item's
	 * shard reserves them itself (one shard, or no bucket).
	 */
	public String reservedBuckets() {
		if (this.shards.count() == 1 || !this.limiter.hasBuckets()) {
			return "";
		}
		return this.link.run(Script.RESERVE, ScriptOutputType.VALUE, this.shards.keys(0).scriptKeys(), this.now.get(),
				this.limiter.json());
	}

	private QueueKeys shardOf(String encoded) {
		return this.shards.keys(this.shards.of(encoded));
	}

	private String[] keysOf(String encoded) {
		return shardOf(encoded).scriptKeys();
	}

}
