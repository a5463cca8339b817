package io.github.workqueue.redis.internal.batch;

import java.util.List;
import java.util.Objects;
import java.util.concurrent.Executor;
import java.util.concurrent.atomic.AtomicBoolean;

import io.lettuce.core.RedisCommandTimeoutException;
import io.lettuce.core.RedisException;
import org.jspecify.annotations.Nullable;

import io.github.workqueue.redis.internal.link.SentScript;

/**
 * One shard's part of a batch on its way to Redis: sent by the {@link Batcher}'s sender,
 * answered on a Lettuce thread (which only hands it back to the sender), read by the
 * sender. A shard has at most one sent part at a time, so that a shard that does not
 * answer holds up its own requests only.
 *
 * <p>
 * Thread-safe: the fields are final but {@code timedOut}, which only the sender writes
 * and reads.
 */
final class SentPart {

	final ShardBatch part;

	/** The takers the part asks leases for; empty if it asks none. */
	final List<Taker> takers;

	final long sentNanos;

	/** When the sender stops waiting for the reply ({@link System#nanoTime()}). */
	final long deadlineNanos;

	/** The script on its way, or {@code null} if it could not be sent. */
	private final @Nullable SentScript<List<Object>> script;

	private final @Nullable RuntimeException notSent;

	private boolean timedOut;

	private final AtomicBoolean handedOver = new AtomicBoolean();

	/**
	 * True the first time: the sent part is handed to the sender once, by its landing or
	 * its timeout.
	 */
	boolean handOver() {
		return this.handedOver.compareAndSet(false, true);
	}

	private SentPart(ShardBatch part, List<Taker> takers, long sentNanos, long deadlineNanos,
			@Nullable SentScript<List<Object>> script, @Nullable RuntimeException notSent) {
		this.part = part;
		this.takers = takers;
		this.sentNanos = sentNanos;
		this.deadlineNanos = deadlineNanos;
		this.script = script;
		this.notSent = notSent;
	}

	static SentPart sent(ShardBatch part, List<Taker> takers, long sentNanos, SentScript<List<Object>> script) {
		return new SentPart(part, takers, sentNanos, sentNanos + script.timeout().toNanos(), script, null);
	}

	static SentPart notSent(ShardBatch part, List<Taker> takers, long sentNanos, RuntimeException failure) {
		return new SentPart(part, takers, sentNanos, sentNanos, null, failure);
	}

	int shard() {
		return this.part.shard();
	}

	boolean wasSent() {
		return this.script != null;
	}

	/**
	 * Whether the reply came and failed in a way a second try mends (see
	 * {@link SentScript#wantsSecondTry()}).
	 */
	boolean wantsSecondTry() {
		return !this.timedOut && this.script != null && this.script.wantsSecondTry();
	}

	/**
	 * The same part, tried a second time on one of the executor's threads; its deadline
	 * counts from now.
	 */
	SentPart secondTry(Executor executor) {
		SentScript<List<Object>> second = Objects.requireNonNull(this.script).secondTry(executor);
		return new SentPart(this.part, this.takers, this.sentNanos, System.nanoTime() + second.timeout().toNanos(),
				second, null);
	}

	/**
	 * Calls back once the reply came or failed; see {@link SentScript#whenAnswered}.
	 */
	void whenAnswered(Runnable callback) {
		if (this.script != null) {
			this.script.whenAnswered(callback);
		}
	}

	/**
	 * How many replicas confirmed the part's writes, once answered; -1 if none were asked
	 * or the wait failed.
	 */
	long confirmedReplicas() {
		return (this.script != null) ? this.script.confirmedReplicas() : -1;
	}

	/** Gives up on the reply: it counts as a command timeout. */
	void timeOut() {
		this.timedOut = true;
		if (this.script != null) {
			this.script.cancel();
		}
	}

	/**
	 * The reply, once it came (or the sent part timed out).
	 * @throws RedisException if the part was not sent, failed, or timed out
	 */
	List<Object> reply() {
		if (this.notSent != null) {
			throw (this.notSent instanceof RedisException redis) ? redis : new RedisException(this.notSent);
		}
		if (this.timedOut || this.script == null) {
			throw new RedisCommandTimeoutException("No reply within "
					+ (this.deadlineNanos - this.sentNanos) / 1_000_000 + " ms from the shard " + shard());
		}
		return this.script.reply();
	}

}
