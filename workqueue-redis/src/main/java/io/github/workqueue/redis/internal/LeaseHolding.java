package io.github.workqueue.redis.internal;

import java.lang.System.Logger.Level;
import java.time.Duration;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.function.Supplier;

import io.github.workqueue.core.PrioritizedItem;
import io.github.workqueue.core.internal.Nanos;
import io.github.workqueue.core.trace.AddTraces;
import io.github.workqueue.redis.DoneResult;
import io.github.workqueue.redis.ItemCodec;
import io.github.workqueue.redis.Lease;
import io.github.workqueue.redis.RedisQueue;
import io.github.workqueue.redis.UnreplicatedWriteException;
import io.lettuce.core.ScriptOutputType;
import org.jspecify.annotations.Nullable;

import io.github.workqueue.redis.internal.link.RedisLink;
import io.github.workqueue.redis.internal.link.Script;

import io.github.workqueue.redis.internal.shared.Shards;

import io.github.workqueue.redis.internal.batch.Batcher;
import io.github.workqueue.redis.internal.batch.Grant;

/**
 * The leases one instance's threads hold: taken from the batches in {@code get} (an item
 * that cannot be decoded is parked instead), recorded in {@link HeldLeases} for the
 * renewer, and ended by {@code done}, waiting for Redis's answer or not (group commit).
 * Each outcome is reported ({@link DoneReports}), and the drain told when a lease ends.
 *
 * <p>
 * <b>Concurrency.</b> Thread-safe: the held leases are a concurrent record, the batcher
 * is thread-safe, and this class keeps no state of its own.
 *
 * @param <T> the type of the items
 */
final class LeaseHolding<T> {

	private static final System.Logger logger = System.getLogger(RedisQueue.class.getName());

	private final String name;

	/** The queue that grants the leases: a done of another queue's lease is refused. */
	private final Object grantor;

	private final RedisLink link;

	private final Shards shards;

	private final ItemCodec<T> codec;

	private final Batcher batcher;

	private final HeldLeases<T> held;

	private final Duration leaseDuration;

	private final @Nullable RedisQueueMetrics metrics;

	private final DoneReports doneReports;

	private final InstanceShutdown<T> shutdown;

	private final Supplier<String> now;

	record Setup(String name, Object grantor, RedisLink link, Shards shards, Duration leaseDuration,
			@Nullable RedisQueueMetrics metrics, Supplier<String> now) {
	}

	LeaseHolding(Setup setup, ItemCodec<T> codec, Batcher batcher, HeldLeases<T> held, DoneReports doneReports,
			InstanceShutdown<T> shutdown) {
		this.name = setup.name();
		this.grantor = setup.grantor();
		this.link = setup.link();
		this.shards = setup.shards();
		this.leaseDuration = setup.leaseDuration();
		this.metrics = setup.metrics();
		this.now = setup.now();
		this.codec = codec;
		this.batcher = batcher;
		this.held = held;
		this.doneReports = doneReports;
		this.shutdown = shutdown;
	}

	/**
	 * Waits for a lease from the batches this instance sends (see {@link Batcher}); parks
	 * an item that cannot be decoded and waits again.
	 * @param timeoutNanos how long at most, {@code Long.MAX_VALUE} for no limit
	 */
	Optional<PrioritizedItem<T>> get(long timeoutNanos) throws InterruptedException {
		long start = System.nanoTime();
		boolean first = true;
		while (true) {
			if (Thread.interrupted()) {
				throw new InterruptedException();
			}
			if (this.shutdown.isShuttingDown()) {
				return Optional.empty();
			}
			long remaining = Nanos.remaining(start, timeoutNanos);
			Grant grant = (first || remaining > 0) ? this.batcher.takes().take(Math.max(0, remaining)) : null;
			first = false;
			if (grant == null) {
				return Optional.empty();
			}
			Optional<PrioritizedItem<T>> taken = hold(grant);
			if (taken.isPresent() || this.shutdown.isShuttingDown()) {
				return taken;
			}
		}
	}

	/**
	 * Records the lease the batch granted to the calling thread, or parks an item that
	 * cannot be decoded.
	 * @param grant the lease granted, with when its batch was sent (its liveness counts
	 * from then)
	 * @return the item, or empty if it was parked or this instance is shutting down
	 */
	private Optional<PrioritizedItem<T>> hold(Grant grant) {
		String encoded = grant.encoded();
		long token = grant.token();
		T item;
		try {
			item = this.codec.decode(encoded);
		}
		catch (RuntimeException ex) {
			String reason = "cannot be decoded by " + this.codec + ": " + ex;
			this.link.run(Script.PARK, ScriptOutputType.INTEGER, this.shards.keys(this.shards.of(encoded)).scriptKeys(),
					this.now.get(), encoded, Long.toString(token), reason);
			logger.log(Level.ERROR, "workqueue '" + this.name + "': parked item " + encoded + ", which " + reason);
			return Optional.empty();
		}
		HeldLease lease = new HeldLease(this.grantor, item, encoded, token, grant.deadlineMicros(), grant.sentNanos(),
				System.nanoTime(), Thread.currentThread(), this.leaseDuration.toNanos(),
				AddTraces.decode(grant.traces()));
		this.held.add(item, lease);
		if (this.shutdown.isShuttingDown()) {
			// shutDown may have released the leases before this one was recorded: give it
			// back.
			if (this.held.remove(item, lease)) {
				this.shutdown.release(List.of(lease));
			}
			return Optional.empty();
		}
		if (this.metrics != null) {
			this.metrics.taken(grant.queuedMicros());
		}
		return Optional.of(new PrioritizedItem<>(item, grant.priority()));
	}

	/** Ends the calling thread's lease on the item, if it holds one, and waits. */
	void done(T item) {
		Objects.requireNonNull(item, "item");
		HeldLease lease = this.held.removeFor(item, Thread.currentThread());
		if (lease != null) {
			end(lease, true);
		}
	}

	/** Ends the calling thread's lease on the item, if it holds one, without waiting. */
	void doneWithoutWaiting(T item) {
		Objects.requireNonNull(item, "item");
		HeldLease lease = this.held.removeFor(item, Thread.currentThread());
		if (lease != null) {
			endLater(lease);
		}
	}

	/** Ends a lease granted by this queue to any of its threads. */
	DoneResult done(Lease lease) {
		Objects.requireNonNull(lease, "lease");
		if (!(lease instanceof HeldLease held) || held.grantor != this.grantor) {
			throw new IllegalArgumentException(lease + " was not granted by " + this.grantor);
		}
		if (held.givenBack) {
			// Not expired: this instance gave the item back at shutdown, for the others.
			return DoneResult.REJECTED;
		}
		@SuppressWarnings("unchecked")
		T item = (T) held.item;
		boolean wasHeld = this.held.remove(item, held);
		return end(held, wasHeld);
	}

	/**
	 * Ends a lease that left the held ones in the next batch without waiting for Redis's
	 * answer (group commit): a rejection is logged and counted when it comes, and the
	 * lease's outcome completed.
	 */
	private void endLater(HeldLease lease) {
		if (this.metrics != null) {
			this.metrics.finished(System.nanoTime() - lease.takenNanos);
		}
		this.batcher.doneLater(lease.encoded, lease.token, lease.taker,
				System.nanoTime() + this.batcher.askingTime().toNanos(),
				(accepted) -> this.doneReports.answered(lease, accepted));
		this.shutdown.leaseEnded();
	}

	/**
	 * Runs the done for a lease that left the held ones, and reports the outcome; one
	 * that Redis did not answer in time is reported when it is known
	 * ({@link DoneReports#answeredLate}).
	 * @param first whether this done took the lease out of the held ones, rather than
	 * repeating an earlier done
	 */
	private DoneResult end(HeldLease lease, boolean first) {
		if (first && this.metrics != null) {
			this.metrics.finished(System.nanoTime() - lease.takenNanos);
		}
		Boolean accepted;
		try {
			accepted = this.batcher.done(lease.encoded, lease.token, lease.taker,
					System.nanoTime() + this.batcher.askingTime().toNanos(),
					(outcome) -> this.doneReports.answeredLate(lease, outcome));
		}
		catch (UnreplicatedWriteException ex) {
			// Accepted by the master: the lease has ended there.
			lease.outcome.complete(DoneResult.ACCEPTED);
			this.shutdown.leaseEnded();
			throw ex;
		}
		DoneResult result;
		if (accepted == null) {
			result = DoneResult.NO_ANSWER;
			this.doneReports.noAnswerYet(lease, this.batcher.askingTime());
		}
		else {
			result = accepted ? DoneResult.ACCEPTED : DoneResult.REJECTED;
			if (!accepted) {
				this.doneReports.rejected(lease);
			}
			lease.outcome.complete(result);
		}
		this.shutdown.leaseEnded();
		return result;
	}

}
