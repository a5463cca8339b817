package io.github.workqueue.redis.internal;

import java.util.Objects;
import java.util.function.LongSupplier;

import io.github.workqueue.core.ratelimit.RateLimiter;
import io.github.workqueue.redis.ItemCodec;
import io.github.workqueue.redis.RedisQueue;
import org.jspecify.annotations.Nullable;

import io.github.workqueue.redis.internal.link.OutageLog;
import io.github.workqueue.redis.internal.link.RedisLink;
import io.github.workqueue.redis.internal.link.ReplicaAck;

import io.github.workqueue.redis.internal.shared.InstanceHeartbeats;
import io.github.workqueue.redis.internal.shared.LimiterSpec;
import io.github.workqueue.redis.internal.shared.QueueViews;
import io.github.workqueue.redis.internal.shared.QueueWidePauses;
import io.github.workqueue.redis.internal.shared.Shards;
import io.github.workqueue.redis.internal.shared.SharedDeadLetters;
import io.github.workqueue.redis.internal.shared.SharedFailures;

import io.github.workqueue.redis.internal.batch.Batcher;
import io.github.workqueue.redis.internal.batch.LeaseAheadSizing;
import io.github.workqueue.redis.internal.batch.LeaseReturns;

/**
 * The parts of one {@link DefaultRedisQueue}, wired together once: each has one job (see
 * the queue's class comment), and this class makes them in the order they need each
 * other, starts the lease renewals and the checks that run every second, and holds what
 * they share (the queue's name, holder, codec and Redis link).
 *
 * <p>
 * <b>Concurrency.</b> Its fields are final and set before the queue is published (except
 * {@code workersPaused}, a volatile flag the worker container sets); each part is
 * thread-safe as its own comment says.
 *
 * @param <T> the type of the items
 */
final class RedisQueueParts<T> {

	final String name;

	final RedisLink link;

	final Shards shards;

	final ItemCodec<T> codec;

	final String holder;

	final RateLimiter<? super T> configuredLimiter;

	final @Nullable LongSupplier redisTimeMicros;

	final int defaultPriority;

	final @Nullable RedisQueueMetrics metrics;

	final Batcher batcher;

	final RedisAdds<T> adds;

	final ItemRemoves removes;

	final LeaseHolding<T> holding;

	final InstanceShutdown<T> shutdown;

	final QueueViews views;

	final SharedFailures failures;

	final ReplicaAck ack;

	final QueueDeadLetters deadLetters;

	final InstanceHeartbeats heartbeats;

	/** Whether the worker container says its workers are paused; for the heartbeat. */
	volatile boolean workersPaused;

	final QueueWidePauses pauses;

	final OutageLog outage;

	final HeldLeases<T> held = new HeldLeases<>();

	final LeaseRenewer<T> renewer;

	final StallWatch stallWatch;

	/**
	 * Makes the parts and starts renewing leases every third of the lease duration.
	 * @param settings what the builder collected
	 * @param queue the queue the parts serve, named as the grantor of its leases
	 */
	RedisQueueParts(RedisQueueSettings<T> settings, RedisQueue<T> queue) {
		this.name = settings.name();
		this.link = settings.link();
		this.shards = new Shards(settings.prefix(), settings.name(), settings.shards());
		this.codec = settings.codec();
		this.holder = settings.holder().replaceAll("\\s", "_");
		this.configuredLimiter = settings.rateLimiter();
		this.redisTimeMicros = settings.redisTimeMicros();
		this.defaultPriority = settings.defaultPriority();
		RedisQueueMetrics metrics = settings.metrics();
		this.metrics = metrics;
		String leaseMicros = Long.toString(LimiterSpec.micros(settings.leaseDuration()));
		this.outage = new OutageLog(this.name, this.link::isClosed);
		this.ack = new ReplicaAck(this.name, settings.replicasAck(), settings.replicasAckTimeout(),
				(metrics != null) ? metrics.unreplicatedWrites() : null);
		this.batcher = new Batcher(this.name, this.link, this.shards, this::now,
				new String[] { this.holder, leaseMicros, Integer.toString(settings.maxRedeliveries()) },
				settings.leaseDuration(), settings.longestBlock().toNanos(),
				new LeaseAheadSizing(settings.prefetch(), settings.adaptivePrefetch()), settings.asyncAdds(),
				this.outage, this.ack);
		this.views = new QueueViews(this.link, this.shards, this::now);
		this.deadLetters = new QueueDeadLetters(this.name,
				new SharedDeadLetters(this.link, this.shards.keys(0), this::now), this.views, this.batcher);
		this.heartbeats = new InstanceHeartbeats(this.link, this.shards.keys(0).instances(), this.holder);
		this.pauses = new QueueWidePauses(this.name, this.link, this.shards, this::now);
		this.failures = new SharedFailures(this.link, this.shards, LimiterSpec.of(settings.rateLimiter()), this::now);
		this.shutdown = new InstanceShutdown<>(this.name, this.batcher, this.held, this.heartbeats,
				new LeaseReturns(this.name, this.link, this.shards, this::now), this.outage, this::stopRenewals);
		this.removes = new ItemRemoves(this.name, this.link, this.shards, this.batcher, metrics, this::now);
		this.adds = new RedisAdds<>(
				new RedisAdds.Setup<>(this.name, this.codec, metrics, this.defaultPriority, settings.fairness(),
						settings.traceCapture()),
				this.batcher,
				new ScriptedAdds(this.name, this.link, this.shards, this.batcher, this.failures, this.ack, this::now),
				this.shutdown::isShuttingDown, this.link.helpers());
		this.holding = new LeaseHolding<>(
				new LeaseHolding.Setup(this.name, queue, this.link, this.shards, settings.leaseDuration(), metrics,
						this::now),
				this.codec, this.batcher, this.held,
				new DoneReports(this.name, this.link, metrics, settings.lateDoneListener()), this.shutdown);
		this.renewer = new LeaseRenewer<>(this.name, this.link, this.shards, this.held, this.batcher.takes()::buffered,
				leaseMicros, this::now, metrics, this.views, this.outage, this.shutdown::signalDrain);
		this.renewer.start(settings.leaseDuration());
		this.stallWatch = new StallWatch(this.name, this.batcher, this.link, metrics);
		this.renewer.everySecond(this.stallWatch::check);
		this.renewer.everySecond(this::heartbeat);
		this.link.beforeClose(this.batcher::awaitPendingDones);
	}

	/** Stops renewing this instance's leases (at shutdown, once none is held). */
	private void stopRenewals() {
		this.renewer.stop();
	}

	/**
	 * Writes this instance's heartbeat: what it holds and waits for now. Never waits for
	 * Redis (a heartbeat lost in an outage is written again a second later).
	 */
	private void heartbeat() {
		if (!this.shutdown.isShuttingDown()) {
			this.heartbeats.beat(this.held.count(), this.batcher.takes().waitingTakers(),
					this.batcher.takes().leasedAhead(), this.workersPaused);
		}
	}

	/** The time as the scripts take it: Redis's own unless a clock was given (tests). */
	String now() {
		return (this.redisTimeMicros != null) ? Long.toString(this.redisTimeMicros.getAsLong()) : "";
	}

	/** The item's encoded form, the identity Redis knows it by. */
	String encode(T item) {
		Objects.requireNonNull(item, "item");
		return this.codec.encode(item);
	}

}
