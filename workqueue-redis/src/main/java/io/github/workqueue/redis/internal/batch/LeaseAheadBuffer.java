package io.github.workqueue.redis.internal.batch;

import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;

import org.jspecify.annotations.Nullable;

import io.github.workqueue.redis.internal.shared.Shards;

/**
 * The leases one instance took ahead of its waiting threads (prefetch), and when to ask
 * for more: at most as many as {@link LeaseAheadSizing} says now (never more than
 * {@code prefetch}), oldest first, each handed to the next thread that takes. A batch
 * that asks for leases for waiting threads asks for the buffer's room beyond them, less
 * those asked for already; after a take leaves the buffer half empty the next batch asks
 * for them alone, and only then, so that an instance that only adds leases nothing. An
 * ask alone that finds too few on every shard in a row is not made again before
 * {@code longestBlock}. A pause suspends the asks until the next take.
 *
 * <p>
 * <b>Concurrency.</b> Not thread-safe: guarded by the owning {@link BatchState}'s
 * monitor, with the rest of the batches' shared state. {@link BufferedGrant}s are shared
 * with the renewer, which reads them without it.
 */
final class LeaseAheadBuffer {

	/** How many leases to keep ahead now. */
	private final LeaseAheadSizing sizing;

	private final long leaseNanos;

	private final int shardCount;

	private final long longestBlockNanos;

	/**
	 * Leases taken ahead, oldest first: at most the sizing's size when each was kept.
	 */
	private final ArrayDeque<BufferedGrant> grants = new ArrayDeque<>();

	/** Leases asked for ahead by the sent parts not read yet. */
	private int asked;

	/** No lease is asked for ahead until the next take: set by a pause. */
	private boolean suspended;

	/** A take left the buffer half empty: the next batch asks for leases ahead. */
	private boolean refillAsked;

	/**
	 * Before this time ({@link System#nanoTime()}), after an ask alone found too few,
	 * none is asked for alone.
	 */
	private long refillAt;

	/** Shards in a row that had fewer leases ahead than asked for. */
	private int shortRefills;

	LeaseAheadBuffer(LeaseAheadSizing sizing, Duration leaseDuration, int shardCount, long longestBlockNanos,
			long start) {
		this.sizing = sizing;
		this.leaseNanos = leaseDuration.toNanos();
		this.shardCount = shardCount;
		this.longestBlockNanos = longestBlockNanos;
		this.refillAt = start;
	}

	/**
	 * Takes the oldest lease that can still be handed out, if any, after a thread came to
	 * take (which ends a pause's suspension); those before it that cannot (their renewal
	 * failed for half a lease, or Redis says they expired) go to {@code stale}.
	 * @param gapNanos how long the taking thread had been away since its previous take
	 * returned an item, or -1 if it had none lately
	 */
	@Nullable Grant take(long now, long gapNanos, List<BufferedGrant> stale) {
		this.suspended = false;
		long handOutNanos = this.leaseNanos / 2;
		for (BufferedGrant buffered; (buffered = this.grants.poll()) != null;) {
			if (buffered.canHandOut(now, handOutNanos)) {
				this.sizing.tookBuffered(buffered.waitedNanos(now), gapNanos, this.grants.size());
				return buffered.handOut(now);
			}
			stale.add(buffered);
		}
		this.sizing.tookNothing(gapNanos);
		return null;
	}

	/** A batch call was answered this long after it was sent. */
	void roundTrip(long nanos) {
		this.sizing.roundTrip(nanos);
	}

	/**
	 * After a take served from the buffer: asks for a refill once it is half empty.
	 * @return whether the refill may be asked for now
	 */
	boolean tookOne(long now, boolean shuttingDown) {
		int size = this.sizing.size();
		if (size > 0 && wanted(shuttingDown) >= (size + 1) / 2) {
			this.refillAsked = true;
			return now - this.refillAt >= 0;
		}
		return false;
	}

	/**
	 * Keeps a lease no thread waited for, if there is room and asks are not suspended.
	 */
	boolean keep(Grant grant, boolean shuttingDown) {
		if (shuttingDown || this.suspended || this.grants.size() >= this.sizing.size()) {
			return false;
		}
		this.grants.add(new BufferedGrant(grant));
		return true;
	}

	int size() {
		return this.grants.size();
	}

	/** Takes out the leases that waited a whole lease duration: no thread took them. */
	List<Grant> takeOverdue(long now) {
		List<Grant> overdue = new ArrayList<>(0);
		BufferedGrant oldest;
		while ((oldest = this.grants.peek()) != null && oldest.waitedNanos(now) >= this.leaseNanos) {
			overdue.add(this.grants.poll().grant);
		}
		return overdue;
	}

	/** The leases waiting now, oldest first, for the renewer. */
	List<BufferedGrant> waiting() {
		return List.copyOf(this.grants);
	}

	/**
	 * Takes one item's lease out of the buffer, so that no thread is handed it.
	 * @return the lease, or {@code null} if the buffer holds none for the item
	 */
	@Nullable Grant remove(String encoded) {
		for (var iterator = this.grants.iterator(); iterator.hasNext();) {
			BufferedGrant buffered = iterator.next();
			if (buffered.encoded().equals(encoded)) {
				iterator.remove();
				return buffered.grant;
			}
		}
		return null;
	}

	/** Empties the buffer, in order; with {@code suspend}, asks none until a take. */
	List<Grant> drain(boolean suspend) {
		this.suspended |= suspend;
		List<Grant> all = new ArrayList<>(this.grants.size());
		for (BufferedGrant buffered; (buffered = this.grants.poll()) != null;) {
			all.add(buffered.grant);
		}
		return all;
	}

	/** How many leases a batch may ask for ahead: the room, less those asked already. */
	int wanted(boolean shuttingDown) {
		if (shuttingDown || this.suspended) {
			return 0;
		}
		return Math.max(0, this.sizing.size() - this.grants.size() - this.asked);
	}

	/** Whether a batch asks for leases ahead alone now. */
	boolean refillDue(long now, boolean shuttingDown) {
		return this.refillAsked && wanted(shuttingDown) > 0 && now - this.refillAt >= 0;
	}

	/**
	 * Whether a refill was asked for and waits, after a short one, for
	 * {@link #refillAt()}.
	 */
	boolean refillWaits(long now) {
		return this.refillAsked && now - this.refillAt < 0;
	}

	long refillAt() {
		return this.refillAt;
	}

	/**
	 * The leases a batch asks for ahead, when it asks for {@code forTakers} leases with
	 * {@code room} left: none unless takers wait or a refill was asked.
	 */
	int ask(int forTakers, int room, boolean shuttingDown) {
		if (forTakers == 0 && !this.refillAsked) {
			return 0;
		}
		int extras = Math.min(room, wanted(shuttingDown));
		this.asked += extras;
		this.refillAsked = false;
		return extras;
	}

	/** A sent part that asked for {@code extras} leases ahead was answered. */
	void answered(int extras) {
		this.asked -= extras;
	}

	/**
	 * A shard had as many leases ahead as asked for ({@code short} false) or fewer: the
	 * next shard may be asked at once; once every shard in a row was short, not before
	 * {@code longestBlock} (a batch that goes anyway still asks).
	 */
	void shardAnswered(boolean wasShort, long now) {
		if (!wasShort) {
			this.shortRefills = 0;
			return;
		}
		if (++this.shortRefills < this.shardCount) {
			this.refillAt = now;
			return;
		}
		this.shortRefills = 0;
		this.refillAt = now + this.longestBlockNanos;
	}

}
