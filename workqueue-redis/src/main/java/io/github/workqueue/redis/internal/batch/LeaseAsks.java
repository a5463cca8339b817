package io.github.workqueue.redis.internal.batch;

import io.github.workqueue.core.internal.Nanos;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import org.jspecify.annotations.Nullable;

import io.github.workqueue.redis.internal.shared.Shards;

/**
 * The threads waiting in {@link LeaseTakes#take} and the asks for their leases: which
 * shard is asked next, when the next ask is due, and how long the takers wait once every
 * shard had too few.
 *
 * <p>
 * Leases are asked of one shard at a time, the shards in turn, so that every shard is
 * served; a shard that has fewer than asked for passes the turn on at once, and only when
 * every shard in a row had too few do the takers wait (for a hint from any shard, or the
 * soonest waiting item or lease deadline of all, or {@code longestBlock}). A taker that
 * came after a short ask was sent was not asked for, and is asked for at once. An ask
 * that has gone unanswered for {@link #PATIENCE_NANOS} lets the next free shard be asked
 * too. A grant goes to the first taker still waiting (the others timed out, were
 * interrupted, were served by another shard or released by shutdown).
 *
 * <p>
 * <b>Concurrency.</b> Not thread-safe: guarded by the owning {@link BatchState}'s
 * monitor.
 */
final class LeaseAsks {

	/**
	 * How long the takers' lease ask may go unanswered before another shard is asked for
	 * them too (a grant that then finds no taker is given back).
	 */
	static final long PATIENCE_NANOS = TimeUnit.MILLISECONDS.toNanos(250);

	private static final long SHORTEST_POLL_NANOS = TimeUnit.MILLISECONDS.toNanos(1);

	private final ArrayDeque<Taker> takers = new ArrayDeque<>();

	private final int shardCount;

	private final long longestBlockNanos;

	/** The sent part that carries the takers' lease ask, until it is read. */
	private @Nullable SentPart asking;

	/**
	 * When the last taker came ({@link System#nanoTime()}): a short ask sent before it
	 * did not ask for it, so the takers do not wait for a hint then.
	 */
	private long lastTakerNanos;

	/** A hint was popped since the last batch was made. */
	private boolean hinted;

	/** When the takers' next ask is due, without a hint ({@link System#nanoTime()}). */
	private long pollAt;

	/** The shard asked first next time. */
	private int turn;

	/** Shards in a row that had fewer leases than asked for, and their soonest event. */
	private int shortShards;

	private long soonestEventMicros = -1;

	private boolean shutDown;

	LeaseAsks(int shardCount, long longestBlockNanos) {
		this.shardCount = shardCount;
		this.longestBlockNanos = longestBlockNanos;
	}

	/** Whether the batcher is shutting down: no lease is asked for or kept any more. */
	boolean isShutDown() {
		return this.shutDown;
	}

	/** Releases the waiting takers and asks for no lease any more. */
	void shutDown() {
		this.shutDown = true;
		for (Taker taker : this.takers) {
			taker.cancel();
		}
		this.takers.clear();
	}

	/** A thread waits for a lease: its ask is due now. */
	void waitFor(Taker taker, long now) {
		this.takers.add(taker);
		this.pollAt = now;
		this.lastTakerNanos = now;
	}

	/** Counts the takers still waiting, dropping the others. */
	int count() {
		this.takers.removeIf((taker) -> !taker.isWaiting());
		return this.takers.size();
	}

	/**
	 * Whether a taker still waits. Asks the takers from the head, dropping those that
	 * stopped waiting, up to the first that waits: most steps ask this, and asking every
	 * taker (as {@link #count} does) cost a monitor per waiting thread each time.
	 */
	boolean any() {
		Taker first;
		while ((first = this.takers.peekFirst()) != null) {
			if (first.isWaiting()) {
				return true;
			}
			this.takers.pollFirst();
		}
		return false;
	}

	/**
	 * Whether the takers' ask is due: their poll time came or a hint was popped, or a
	 * batch goes anyway (then the ask costs the round trip nothing).
	 */
	boolean due(long now, boolean batchGoes) {
		return any() && (batchGoes || this.hinted || now - this.pollAt >= 0);
	}

	/** Whether an ask is on its way and still within its patience. */
	boolean awaitsAnswer(long now) {
		return this.asking != null && now - this.asking.sentNanos < PATIENCE_NANOS;
	}

	/** Whether an ask is on its way. */
	boolean isAsking() {
		return this.asking != null;
	}

	/** The shard asked first next time. */
	int turn() {
		return this.turn;
	}

	/**
	 * The takers an ask of the given shard is for: the first {@code most} still waiting.
	 * The next ask goes to the shard after it first, and a hint is spent.
	 */
	List<Taker> askOf(int shard, int most) {
		int wanted = Math.min(most, count());
		List<Taker> included = new ArrayList<>(wanted);
		for (Taker taker : this.takers) {
			if (included.size() == wanted) {
				break;
			}
			included.add(taker);
		}
		this.turn = (shard + 1) % this.shardCount;
		return included;
	}

	/** A batch was made: the hint that made it due, if any, is spent. */
	void batchMade() {
		this.hinted = false;
	}

	/** A sent part left: it carries the ask if it asks for leases. */
	void sent(SentPart sentPart) {
		if (sentPart.part.wanted() > 0) {
			this.asking = sentPart;
		}
	}

	/** A sent part landed: the ask it carried is answered. */
	void landed(SentPart sentPart) {
		if (this.asking == sentPart) {
			this.asking = null;
		}
	}

	/**
	 * When the sender must wake for the takers, if earlier than {@code wakeAt}: their
	 * poll time, or the patience of an ask on its way.
	 */
	long wakeAt(long now, long wakeAt) {
		if (!this.hinted && now - this.pollAt < 0) {
			return Nanos.earlier(wakeAt, this.pollAt);
		}
		if (this.asking != null) {
			return Nanos.earlier(wakeAt, this.asking.sentNanos + PATIENCE_NANOS);
		}
		return wakeAt;
	}

	/**
	 * Hands each grant, in order, to the first taker still waiting, or else to the buffer
	 * while it has room: all at once, so that a served taker finds the buffer filled.
	 * @param served the takers served are added here, each as it is served: the caller
	 * wakes them ({@link Taker#wake}) once it holds the batch state's monitor no more,
	 * also if this throws
	 * @return the grants that neither took
	 */
	List<Grant> serve(List<Grant> grants, LeaseAheadBuffer buffer, List<Taker> served) {
		List<Grant> unclaimed = new ArrayList<>(0);
		for (Grant grant : grants) {
			if (!serve(grant, served) && !buffer.keep(grant, this.shutDown)) {
				unclaimed.add(grant);
			}
		}
		return unclaimed;
	}

	/** Hands a grant to the first taker still waiting. */
	private boolean serve(Grant grant, List<Taker> served) {
		Taker taker;
		while ((taker = this.takers.poll()) != null) {
			if (taker.claim(grant)) {
				served.add(taker);
				return true;
			}
		}
		return false;
	}

	/**
	 * A shard's hint was popped: if takers wait here, their next ask goes to that shard
	 * at once.
	 * @return whether takers wait here (else the hint is passed on)
	 */
	boolean hinted(int shard) {
		if (!any()) {
			return false;
		}
		this.hinted = true;
		this.turn = shard;
		return true;
	}

	private boolean anyPartlyTried() {
		for (Taker taker : this.takers) {
			if (taker.waitsPartlyTried()) {
				return true;
			}
		}
		return false;
	}

	/** A shard had the leases the takers were asked for. */
	void shardHadEnough() {
		this.shortShards = 0;
		this.soonestEventMicros = -1;
	}

	/**
	 * A shard had fewer leases than the takers were asked for: the next shard is asked at
	 * once; once every shard in a row was short, the takers wait for a hint or the
	 * soonest event (unless one of them came after the ask was sent). The takers do not
	 * wait while one of them was answered short by some shards and not yet by the others
	 * (its count is its own: {@link Taker#answeredShort}): the next shard is asked at
	 * once.
	 * @param nextEventMicros the shard's soonest waiting item or lease deadline, -1 for
	 * none
	 * @return whether every shard in a row was short (then the caller listens for hints)
	 */
	boolean shardWasShort(long nextEventMicros, long askSentNanos, long now) {
		if (nextEventMicros >= 0 && (this.soonestEventMicros < 0 || nextEventMicros < this.soonestEventMicros)) {
			this.soonestEventMicros = nextEventMicros;
		}
		if (++this.shortShards < this.shardCount) {
			this.pollAt = now;
			return false;
		}
		long wait = this.longestBlockNanos;
		if (this.soonestEventMicros >= 0) {
			wait = Math.min(wait, Math.max(SHORTEST_POLL_NANOS, this.soonestEventMicros * 1000));
		}
		boolean askAgain = this.lastTakerNanos - askSentNanos > 0 || anyPartlyTried();
		this.pollAt = now + (askAgain ? 0 : wait);
		this.shortShards = 0;
		this.soonestEventMicros = -1;
		return true;
	}

}
