package io.github.workqueue.redis.internal;

import java.lang.System.Logger.Level;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;

import io.github.workqueue.redis.RedisQueue;
import io.lettuce.core.RedisException;
import io.lettuce.core.ScriptOutputType;
import org.jspecify.annotations.Nullable;

import io.github.workqueue.redis.internal.link.OutageLog;
import io.github.workqueue.redis.internal.link.RedisLink;
import io.github.workqueue.redis.internal.link.Script;
import io.github.workqueue.redis.internal.link.SentScript;

import io.github.workqueue.redis.internal.shared.QueueViews;
import io.github.workqueue.redis.internal.shared.Shards;

import io.github.workqueue.redis.internal.batch.BufferedGrant;
import io.github.workqueue.redis.internal.batch.Renewable;

/**
 * Keeps one instance's leases alive: every third of the lease duration, one renew script
 * extends every lease in {@link HeldLeases} whose taking thread still lives and every
 * lease taken ahead that waits in the buffer, and marks lost the ones Redis says are no
 * longer this lease's (they expired). The lease of a thread that ended without
 * {@code done} leaves {@link HeldLeases} and is no longer renewed. Also publishes, on the
 * same beat, the unfinished-work and queue-wide gauges (the depth per priority too).
 * Thread-safe: one scheduler thread runs the renewals.
 *
 * @param <T> the type of the items
 */
final class LeaseRenewer<T> {

	private static final System.Logger logger = System.getLogger(RedisQueue.class.getName());

	private final String name;

	private final RedisLink link;

	private final Shards shards;

	private final HeldLeases<T> held;

	/** The leases taken ahead of the workers, renewed too. */
	private final Supplier<List<BufferedGrant>> buffered;

	private final String leaseMicros;

	private final Supplier<String> now;

	private final @Nullable RedisQueueMetrics metrics;

	private final QueueViews views;

	private final OutageLog outage;

	private final Runnable onLeaseDropped;

	private final ScheduledExecutorService scheduler;

	LeaseRenewer(String name, RedisLink link, Shards shards, HeldLeases<T> held, Supplier<List<BufferedGrant>> buffered,
			String leaseMicros, Supplier<String> now, @Nullable RedisQueueMetrics metrics, QueueViews views,
			OutageLog outage, Runnable onLeaseDropped) {
		this.name = name;
		this.link = link;
		this.shards = shards;
		this.held = held;
		this.buffered = buffered;
		this.leaseMicros = leaseMicros;
		this.now = now;
		this.metrics = metrics;
		this.views = views;
		this.outage = outage;
		this.onLeaseDropped = onLeaseDropped;
		this.scheduler = Executors.newSingleThreadScheduledExecutor((task) -> {
			Thread thread = new Thread(task, "workqueue-redis-" + name + "-leases");
			thread.setDaemon(true);
			return thread;
		});
	}

	/** Renews every third of the lease duration from now on. */
	void start(Duration leaseDuration) {
		long period = Math.max(1, leaseDuration.toNanos() / 3);
		this.scheduler.scheduleAtFixedRate(this::renew, period, period, TimeUnit.NANOSECONDS);
	}

	/**
	 * Also runs a check every second on the renewer's thread, until {@link #stop()}.
	 */
	void everySecond(Runnable check) {
		this.scheduler.scheduleWithFixedDelay(() -> {
			try {
				check.run();
			}
			catch (RuntimeException ex) {
				logger.log(Level.ERROR, "workqueue '" + this.name + "': a periodic check failed", ex);
			}
		}, 1, 1, TimeUnit.SECONDS);
	}

	/** Stops renewing, for good. */
	void stop() {
		this.scheduler.shutdownNow();
	}

	/**
	 * Stops for good once the connection is closed: nothing can be renewed again, and the
	 * leases still held expire where they are.
	 */
	private void stopAsClosed() {
		int held = this.held.all().size();
		if (held > 0) {
			logger.log(Level.WARNING,
					"workqueue '" + this.name + "': the Redis connection was closed while " + held
							+ " leases were held; they are no longer renewed, and their items will be delivered "
							+ "again when they expire");
		}
		stop();
	}

	/**
	 * Extends every lease this instance holds; marks the ones Redis says are no longer
	 * its own.
	 */
	private void renew() {
		if (this.link.isClosed()) {
			stopAsClosed();
			return;
		}
		try {
			List<HeldLease> leases = dropLeasesOfDeadThreads(this.held.all());
			long now = System.nanoTime();
			long total = 0;
			long longest = 0;
			for (HeldLease lease : leases) {
				long running = now - lease.takenNanos;
				total += running;
				longest = Math.max(longest, running);
			}
			List<Renewable> renewed = new ArrayList<>(leases);
			renewed.addAll(this.buffered.get());
			renewEachShard(byShard(renewed));
			// After the renewals, so that reading the figures never delays them.
			if (this.metrics != null) {
				this.metrics.unfinished(total, longest);
				this.metrics.shared(this.views.stats(), this.views.lenByPriority());
			}
		}
		catch (RedisException ex) {
			this.outage.failed(ex);
			if (this.link.isClosed()) {
				// Closed while this beat's renewals were on their way.
				stopAsClosed();
			}
		}
		catch (RuntimeException ex) {
			logger.log(Level.ERROR, "workqueue '" + this.name + "': renewing leases failed", ex);
		}
	}

	private List<List<Renewable>> byShard(List<Renewable> leases) {
		List<List<Renewable>> grouped = new ArrayList<>(this.shards.count());
		for (int shard = 0; shard < this.shards.count(); shard++) {
			grouped.add(new ArrayList<>());
		}
		for (Renewable lease : leases) {
			grouped.get(this.shards.of(lease.encoded())).add(lease);
		}
		grouped.removeIf(List::isEmpty);
		return grouped;
	}

	/**
	 * Renews the leases of each shard in one script, the scripts sent together and each
	 * read on its own: a shard that does not answer (a failover) delays and fails only
	 * the renewals of its own leases.
	 */
	private void renewEachShard(List<List<Renewable>> byShard) {
		long sent = System.nanoTime();
		List<Supplier<List<Long>>> replies = new ArrayList<>(byShard.size());
		for (List<Renewable> leases : byShard) {
			replies.add(send(leases));
		}
		for (int i = 0; i < byShard.size(); i++) {
			try {
				renewed(byShard.get(i), replies.get(i).get(), sent);
				this.outage.succeeded();
			}
			catch (RedisException ex) {
				this.outage.failed(ex);
			}
		}
	}

	private Supplier<List<Long>> send(List<Renewable> leases) {
		String[] args = new String[2 + 2 * leases.size()];
		args[0] = this.now.get();
		args[1] = this.leaseMicros;
		for (int i = 0; i < leases.size(); i++) {
			args[2 + 2 * i] = leases.get(i).encoded();
			args[3 + 2 * i] = Long.toString(leases.get(i).token());
		}
		try {
			SentScript<List<Long>> script = this.link.send(Script.RENEW, ScriptOutputType.MULTI,
					this.shards.keys(this.shards.of(leases.get(0).encoded())).scriptKeys(), args);
			return script::reply;
		}
		catch (RedisException ex) {
			return () -> {
				throw ex;
			};
		}
	}

	/** Records what Redis answered to one shard's renewals. */
	private void renewed(List<Renewable> leases, List<Long> renewed, long sent) {
		long deadline = renewed.get(0);
		for (int i = 0; i < leases.size(); i++) {
			Renewable lease = leases.get(i);
			if (renewed.get(i + 1) == 1) {
				lease.renewed(deadline, sent);
			}
			else if (lease.expired()) {
				logger.log(Level.WARNING, "workqueue '" + this.name + "': lost the lease of " + lease.encoded()
						+ ((lease instanceof BufferedGrant) ? " while it waited to be taken" : " while processing it")
						+ ": it expired, so the item may be processing elsewhere");
			}
		}
	}

	/**
	 * A lease is renewed only while its processing lives: the lease of a thread that
	 * ended without done (an Error, a thread killed) is dropped, no longer renewed, so
	 * that it expires and the item is delivered again, counted as a redelivery.
	 * @return the leases whose takers live
	 */
	private List<HeldLease> dropLeasesOfDeadThreads(List<HeldLease> leases) {
		List<HeldLease> live = new ArrayList<>(leases.size());
		for (HeldLease lease : leases) {
			if (lease.taker.isAlive()) {
				live.add(lease);
				continue;
			}
			@SuppressWarnings("unchecked")
			T item = (T) lease.item;
			if (this.held.remove(item, lease)) {
				logger.log(Level.WARNING,
						"workqueue '" + this.name + "': thread '" + lease.taker.getName() + "' ended without done of "
								+ lease.encoded + "; its lease " + lease.token
								+ " is no longer renewed, so the item will be delivered again when it expires");
				this.onLeaseDropped.run();
			}
		}
		return live;
	}

}
