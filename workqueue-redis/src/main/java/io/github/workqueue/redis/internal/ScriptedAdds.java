package io.github.workqueue.redis.internal;

import java.time.Duration;
import java.util.List;
import java.util.function.Supplier;

import io.github.workqueue.redis.UnconfirmedAddException;
import io.github.workqueue.redis.UnreplicatedWriteException;
import io.lettuce.core.RedisCommandExecutionException;
import io.lettuce.core.RedisConnectionException;
import io.lettuce.core.RedisException;
import io.lettuce.core.ScriptOutputType;
import org.jspecify.annotations.Nullable;

import io.github.workqueue.redis.internal.link.CallNumbers;
import io.github.workqueue.redis.internal.link.RedisLink;
import io.github.workqueue.redis.internal.link.ReplicaAck;
import io.github.workqueue.redis.internal.link.Script;

import io.github.workqueue.redis.internal.shared.Shards;
import io.github.workqueue.redis.internal.shared.SharedFailures;

import io.github.workqueue.redis.internal.batch.Batcher;

/**
 * The adds that run a script of their own rather than riding in a batch: a delayed add
 * ({@code addAfter.lua}), a rate-limited add (the shared limiter's script) and an add
 * with options ({@code addWith.lua}). Each waits first for the dones its instance asked
 * without waiting (so that it runs after them, as in a batch), and after its write for
 * the replicas {@code replicas-ack} asks. A failure after the script was sent, other than
 * Redis's error reply, leaves the add's outcome unknown: it is thrown as an
 * {@link UnconfirmedAddException}; so does Redis's refusal of an add that Lettuce sent
 * again after a reconnect, which Redis may have run before (each add runs at most once,
 * {@link RedisLink#runOnce}).
 *
 * <p>
 * <b>Concurrency.</b> Thread-safe: its one state, the adds' numbers, is a
 * {@link CallNumbers}.
 */
final class ScriptedAdds {

	private final String name;

	private final RedisLink link;

	private final Shards shards;

	private final Batcher batcher;

	private final SharedFailures failures;

	private final ReplicaAck ack;

	private final Supplier<String> now;

	/** The numbers of this instance's scripted adds, each run at most once. */
	private final CallNumbers numbers = new CallNumbers();

	ScriptedAdds(String name, RedisLink link, Shards shards, Batcher batcher, SharedFailures failures, ReplicaAck ack,
			Supplier<String> now) {
		this.name = name;
		this.link = link;
		this.shards = shards;
		this.batcher = batcher;
		this.failures = failures;
		this.ack = ack;
		this.now = now;
	}

	/**
	 * Adds an item after a delay (in microseconds, more than 0).
	 * @param trace the trace context the add carries, or null
	 */
	void addAfter(String encoded, long delayMicros, @Nullable String trace) {
		this.batcher.awaitDonesAsked();
		unconfirmedIfUnanswered(encoded,
				() -> this.link.runOnce(this.numbers, Script.ADD_AFTER, ScriptOutputType.INTEGER, keysOf(encoded),
						this.now.get(), encoded, Long.toString(delayMicros), orEmpty(trace)));
		awaitReplicas("addAfter", encoded);
	}

	/**
	 * Adds an item after the shared limiter's delay; returns the delay.
	 * @param trace the trace context the add carries, or null
	 */
	Duration addRateLimited(String encoded, @Nullable String trace) {
		this.batcher.awaitDonesAsked();
		Duration delay = unconfirmedIfUnanswered(encoded,
				() -> this.failures.addRateLimited(encoded, this.numbers, orEmpty(trace)));
		awaitReplicas("addRateLimited", encoded);
		return delay;
	}

	/**
	 * Adds an item with a priority and fairness keys, after a delay or the limiter's.
	 * @return whether the add made the item dirty now, and the delay in microseconds (0
	 * or less for none)
	 * @param trace the trace context the add carries, or null
	 */
	List<Long> addWith(String encoded, int priority, String keys, long delayMicros, boolean rateLimited,
			@Nullable String trace) {
		this.batcher.awaitDonesAsked();
		String reserved = rateLimited ? this.failures.reservedBuckets() : "";
		List<Long> made = unconfirmedIfUnanswered(encoded,
				() -> this.link.runOnce(this.numbers, Script.ADD_WITH, ScriptOutputType.MULTI, keysOf(encoded),
						this.now.get(), encoded, Integer.toString(priority), keys, Long.toString(delayMicros),
						rateLimited ? this.failures.limiterJson() : "", reserved, orEmpty(trace)));
		awaitReplicas("add", encoded);
		return made;
	}

	/**
	 * After a write of its own script: waits for the replicas that {@code replicas-ack}
	 * asks, if any.
	 * @throws UnreplicatedWriteException if fewer confirmed it in time
	 */
	private void awaitReplicas(String operation, String encoded) {
		if (this.ack.isAsked()) {
			ReplicaAck.Shortfall shortfall = this.ack.judge(this.link.awaitReplicas(keysOf(encoded)[0], this.ack));
			if (shortfall != null) {
				throw shortfall.unreplicated(operation, encoded);
			}
		}
	}

	private <R> R unconfirmedIfUnanswered(String encoded, Supplier<R> script) {
		try {
			return script.get();
		}
		catch (RedisCommandExecutionException ex) {
			if (CallNumbers.isRepeatRefusal(ex)) {
				throw new UnconfirmedAddException(this.name, encoded,
						"sent again after a lost connection, and not run again (" + ex.getMessage() + ")", ex);
			}
			throw ex;
		}
		catch (RedisConnectionException | UnconfirmedAddException ex) {
			throw ex;
		}
		catch (RedisException ex) {
			throw new UnconfirmedAddException(this.name, encoded, "no answer from Redis (" + ex.getMessage() + ")", ex);
		}
	}

	/** A trace context as the scripts take it: empty for none. */
	private static String orEmpty(@Nullable String trace) {
		return (trace != null) ? trace : "";
	}

	private String[] keysOf(String encoded) {
		return this.shards.keys(this.shards.of(encoded)).scriptKeys();
	}

}
