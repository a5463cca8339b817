package io.github.workqueue.redis.internal;

import java.lang.System.Logger.Level;
import java.util.List;
import java.util.concurrent.TimeUnit;

import io.github.workqueue.core.internal.Nanos;
import io.github.workqueue.redis.DoneResult;
import io.github.workqueue.redis.RedisQueue;
import io.lettuce.core.RedisException;

import io.github.workqueue.redis.internal.link.OutageLog;

import io.github.workqueue.redis.internal.shared.InstanceHeartbeats;

import io.github.workqueue.redis.internal.batch.Batcher;
import io.github.workqueue.redis.internal.batch.LeaseReturns;

/**
 * One instance's shutdown of a shared queue: it stops taking and accepting items, and a
 * drain waits for its workers' leases to end, then gives back those still held (their
 * items are queued again at once for the other instances). The leases the workers hold
 * stay renewed until they end, so that no other instance takes those items meanwhile.
 *
 * <p>
 * <b>Concurrency.</b> Thread-safe. {@code shuttingDown} is volatile and only ever set; a
 * drain waits on this object's monitor, which guards {@code shutDownCalls} and is
 * notified whenever a held lease ends or a later {@link #shutDown} asks the drain to
 * stop.
 *
 * @param <T> the type of the items
 */
final class InstanceShutdown<T> {

	private static final System.Logger logger = System.getLogger(RedisQueue.class.getName());

	private final String name;

	private final Batcher batcher;

	private final HeldLeases<T> held;

	private final InstanceHeartbeats heartbeats;

	private final LeaseReturns returns;

	private final OutageLog outage;

	private final Runnable stopRenewals;

	private volatile boolean shuttingDown;

	/**
	 * Counts {@link #shutDown} calls, so that a drain stops waiting at the first one
	 * after it began.
	 */
	private long shutDownCalls;

	/**
	 * @param outage whether Redis is known to be down: then no lease is given back at
	 * shutdown (the request would only wait for its timeout)
	 * @param stopRenewals stops renewing this instance's leases, once none is held or the
	 * drain ends
	 */
	InstanceShutdown(String name, Batcher batcher, HeldLeases<T> held, InstanceHeartbeats heartbeats,
			LeaseReturns returns, OutageLog outage, Runnable stopRenewals) {
		this.name = name;
		this.batcher = batcher;
		this.held = held;
		this.heartbeats = heartbeats;
		this.returns = returns;
		this.outage = outage;
		this.stopRenewals = stopRenewals;
	}

	boolean isShuttingDown() {
		return this.shuttingDown;
	}

	/**
	 * Stops taking and accepting items and gives back the items leased ahead; a drain in
	 * progress stops waiting and gives back the leases still held.
	 */
	void shutDown() {
		boolean first = !this.shuttingDown;
		this.shuttingDown = true;
		if (first) {
			// Gone from the instances list at once, not after its heartbeat ages.
			this.heartbeats.stop();
		}
		this.batcher.shutDown();
		synchronized (this) {
			this.shutDownCalls++;
			notifyAll();
		}
		if (this.held.isEmpty()) {
			this.stopRenewals.run();
		}
	}

	/**
	 * Waits until this instance's workers have finished their items, the timeout passes
	 * or {@link #shutDown()} is called; then gives back the leases still held.
	 * @return whether every held lease ended before that
	 */
	boolean shutDownWithDrain(long timeoutNanos) throws InterruptedException {
		this.shuttingDown = true;
		this.batcher.shutDown();
		long start = System.nanoTime();
		try {
			synchronized (this) {
				long released = this.shutDownCalls;
				while (!this.held.isEmpty() && this.shutDownCalls == released) {
					long remaining = Nanos.remaining(start, timeoutNanos);
					if (remaining <= 0) {
						break;
					}
					TimeUnit.NANOSECONDS.timedWait(this, remaining);
				}
				return this.held.isEmpty();
			}
		}
		finally {
			giveBackLeases();
			// Within the drain's time: the dones asked without waiting are on their way.
			this.batcher.awaitPendingDones(Nanos.remaining(start, timeoutNanos));
		}
	}

	/**
	 * A lease left the held ones (ended, or dropped by the renewer): a drain may end, and
	 * with the last one the renewals.
	 */
	void leaseEnded() {
		signalDrain();
		if (this.shuttingDown && this.held.isEmpty()) {
			this.stopRenewals.run();
		}
	}

	/** Wakes a drain in progress, to look at the held leases again. */
	void signalDrain() {
		if (this.shuttingDown) {
			synchronized (this) {
				notifyAll();
			}
		}
	}

	/**
	 * Gives back leases at shutdown: their items are queued again at once, and a later
	 * {@code done} of such an item changes nothing. While Redis is known to be down none
	 * is sent: the items come back when their leases expire, as after a crash.
	 */
	void release(List<HeldLease> leases) {
		leases.forEach((lease) -> {
			lease.givenBack = true;
			lease.outcome.complete(DoneResult.REJECTED);
		});
		if (this.outage.since().isPresent()) {
			// Within the shutdown's bound: a request now would wait its whole timeout.
			logger.log(Level.WARNING, "workqueue '" + this.name + "': did not give back " + leases.size()
					+ " leases at shutdown because Redis cannot be reached; their items come back when the leases "
					+ "expire");
			return;
		}
		try {
			long released = this.returns.giveBack(leases.stream().map((lease) -> lease.encoded).toList(),
					leases.stream().map((lease) -> lease.token).toList());
			logger.log(Level.INFO, "workqueue '" + this.name + "': gave back " + released + " of " + leases.size()
					+ " leases at shutdown; those items are queued again for the other instances");
		}
		catch (RedisException ex) {
			logger.log(Level.WARNING, "workqueue '" + this.name + "': could not give back " + leases.size()
					+ " leases at shutdown (" + ex + "); their items come back when the leases expire");
		}
	}

	/** Stops renewing and gives back the leases still held. */
	private void giveBackLeases() {
		this.stopRenewals.run();
		List<HeldLease> leases = this.held.removeAll();
		if (!leases.isEmpty()) {
			release(leases);
		}
	}

}
