package io.github.workqueue.redis.internal;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Collection;
import java.util.Objects;
import java.util.Optional;
import java.util.SortedMap;
import java.util.concurrent.CompletionStage;
import java.util.function.LongSupplier;

import io.github.workqueue.core.DeadLetter;
import io.github.workqueue.core.AddOptions;
import io.github.workqueue.core.PrioritizedItem;
import io.github.workqueue.core.internal.Nanos;
import io.github.workqueue.core.ratelimit.RateLimiter;
import io.github.workqueue.redis.DoneResult;
import io.github.workqueue.redis.InFlightItem;
import io.github.workqueue.redis.ItemCodec;
import io.github.workqueue.redis.Lease;
import io.github.workqueue.redis.RedisQueue;
import io.github.workqueue.redis.RedisQueueStats;
import io.github.workqueue.redis.QueueInstance;
import io.github.workqueue.redis.QueueWidePause;
import io.lettuce.core.ScriptOutputType;
import org.jspecify.annotations.Nullable;

import io.github.workqueue.redis.internal.link.OutageLog;
import io.github.workqueue.redis.internal.link.RedisLink;
import io.github.workqueue.redis.internal.link.ReplicaAck;
import io.github.workqueue.redis.internal.link.Script;

import io.github.workqueue.redis.internal.shared.InstanceHeartbeats;
import io.github.workqueue.redis.internal.shared.LimiterSpec;
import io.github.workqueue.redis.internal.shared.QueueViews;
import io.github.workqueue.redis.internal.shared.QueueWidePauses;
import io.github.workqueue.redis.internal.shared.Shards;
import io.github.workqueue.redis.internal.shared.SharedDeadLetters;
import io.github.workqueue.redis.internal.shared.SharedFailures;
import io.github.workqueue.redis.internal.shared.SharedRateLimiter;

/**
 * A {@link RedisQueue}: each operation is one script on Redis (see
 * {@code scripts/*.lua}), so it takes effect atomically there, between the call and its
 * return, for every instance at once. This class wires the parts and answers the
 * interface; each part has one job: {@link RedisAdds} (every kind of add),
 * {@link LeaseHolding} (get and done), {@link InstanceShutdown} (shutdown and drain),
 * {@link LeaseRenewer} (renewals, and the checks that run every second),
 * {@link QueueDeadLetters}, {@link QueueViews} (lengths, stats and in-flight items read
 * from Redis), {@link SharedFailures} (the shared rate limiter), {@link QueueWidePauses}
 * and {@link InstanceHeartbeats}.
 *
 * <p>
 * This instance keeps only its leases ({@link HeldLeases}): each lease in {@code held}
 * was granted to this instance's holder name with its token; whether it is still live is
 * Redis's to say (renewals and {@code done} check the token against Redis's record, so a
 * stale holder can never end another's lease).
 *
 * <p>
 * Thread-safe. Adds, dones and the leases for the threads blocked in {@link #get} go to
 * Redis in batches, one script per round trip, sent by one thread ({@link Batcher});
 * while the threads wait and Redis has nothing for them, one blocking pop per instance
 * waits for a wake-up hint.
 *
 * @param <T> the type of the items
 */
public final class DefaultRedisQueue<T> implements RedisQueue<T> {

	private final String name;

	private final RedisLink link;

	private final Shards shards;

	private final ItemCodec<T> codec;

	private final String holder;

	private final RateLimiter<? super T> configuredLimiter;

	private final @Nullable LongSupplier redisTimeMicros;

	private final int defaultPriority;

	private final @Nullable RedisQueueMetrics metrics;

	private final Batcher batcher;

	private final RedisAdds<T> adds;

	private final LeaseHolding<T> holding;

	private final InstanceShutdown<T> shutdown;

	private final QueueViews views;

	private final SharedFailures failures;

	private final ReplicaAck ack;

	private final QueueDeadLetters deadLetters;

	private final InstanceHeartbeats heartbeats;

	/** Whether the worker container says its workers are paused; for the heartbeat. */
	private volatile boolean workersPaused;

	private final QueueWidePauses pauses;

	private final OutageLog outage;

	private final HeldLeases<T> held = new HeldLeases<>();

	private final LeaseRenewer<T> renewer;

	private final StallWatch stallWatch;

	/**
	 * Creates the queue and starts renewing its leases every third of the lease duration.
	 * @param settings what the builder collected
	 */
	public DefaultRedisQueue(RedisQueueSettings<T> settings) {
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
		this.adds = new RedisAdds<>(
				new RedisAdds.Setup<>(this.name, this.codec, metrics, this.defaultPriority, settings.fairness()),
				this.batcher,
				new ScriptedAdds(this.name, this.link, this.shards, this.batcher, this.failures, this.ack, this::now),
				this.shutdown::isShuttingDown, this.link.helpers());
		this.holding = new LeaseHolding<>(
				new LeaseHolding.Setup(this.name, this, this.link, this.shards, settings.leaseDuration(), metrics,
						this::now),
				this.codec, this.batcher, this.held,
				new DoneReports(this.name, this.link, metrics, settings.lateDoneListener()), this.shutdown);
		this.renewer = new LeaseRenewer<>(this.name, this.link, this.shards, this.held, this.batcher::buffered,
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

	@Override
	public String name() {
		return this.name;
	}

	@Override
	public void add(T item) {
		this.adds.add(item, AddOptions.defaults());
	}

	@Override
	public CompletionStage<Void> addAsync(T item) {
		return this.adds.addAsync(item, AddOptions.defaults());
	}

	@Override
	public CompletionStage<Void> addAsync(T item, AddOptions options) {
		return this.adds.addAsync(item, options);
	}

	@Override
	public CompletionStage<Void> addAfterAsync(T item, Duration delay) {
		return this.adds.addAfterAsync(item, delay);
	}

	@Override
	public CompletionStage<Duration> addRateLimitedAsync(T item) {
		return this.adds.addRateLimitedAsync(item);
	}

	@Override
	public void addAll(Collection<? extends T> items) {
		this.adds.addAll(items);
	}

	@Override
	public void addAll(Collection<? extends T> items, AddOptions options) {
		this.adds.addAll(items, options);
	}

	@Override
	public void add(T item, AddOptions options) {
		this.adds.add(item, options);
	}

	@Override
	public List<String> fairnessKeysOf(T item) {
		return this.adds.fairnessKeysOf(item);
	}

	@Override
	public int defaultPriority() {
		return this.defaultPriority;
	}

	@Override
	public SortedMap<Integer, Integer> lenByPriority() {
		this.batcher.awaitDonesAsked();
		return this.views.lenByPriority();
	}

	@Override
	public Map<String, Integer> lenByFairnessKey() {
		this.batcher.awaitDonesAsked();
		return this.adds.hasFairness() ? this.views.lenByFairnessKey() : Map.of();
	}

	@Override
	public void addAfter(T item, Duration delay) {
		this.adds.addAfter(item, delay);
	}

	@Override
	public Duration addRateLimited(T item) {
		return this.adds.addRateLimited(item);
	}

	@Override
	public void forget(T item) {
		this.failures.forget(encode(item));
	}

	/**
	 * {@inheritDoc}
	 * <p>
	 * One script on the item's shard, after the dones this thread asked without waiting.
	 * An item this instance leased ahead is queued as far as its workers know: it is
	 * taken out of the buffer and its lease ended with the remove. (Another instance's
	 * lease ahead counts as taken: the item is processed there, once.)
	 */
	@Override
	public boolean remove(T item) {
		return removeEncoded(encode(item));
	}

	@Override
	public boolean removeEncoded(String encoded) {
		this.batcher.awaitDonesAsked();
		Grant leasedAhead = this.batcher.takeLeasedAhead(encoded);
		Long removed;
		try {
			removed = this.link.run(Script.REMOVE, ScriptOutputType.INTEGER,
					this.shards.keys(this.shards.of(encoded)).scriptKeys(), now(), encoded,
					(leasedAhead != null) ? Long.toString(leasedAhead.token()) : "");
		}
		catch (RuntimeException ex) {
			if (leasedAhead != null) {
				// Whether the remove ran is unknown: the lease taken out of the buffer
				// goes back (a give-back by its token, a no-op if the remove ended it)
				// rather than waiting, unrenewed, for its expiry.
				this.batcher.giveBack(leasedAhead);
			}
			throw ex;
		}
		if (removed == 1 && this.metrics != null) {
			this.metrics.removed();
		}
		return removed == 1;
	}

	@Override
	public int recordFailedAttempt(T item) {
		return this.failures.recordFailedAttempt(encode(item));
	}

	@Override
	public int failedAttempts(T item) {
		return this.failures.failedAttempts(encode(item));
	}

	@Override
	public void clearFailedAttempts(T item, boolean forget) {
		this.failures.clearFailedAttempts(encode(item), forget);
	}

	@Override
	public int numRequeues(T item) {
		return this.failures.numRequeues(encode(item));
	}

	@Override
	public RateLimiter<? super T> rateLimiter() {
		return new SharedRateLimiter<>(this.failures, this::encode, this.configuredLimiter);
	}

	@Override
	public Optional<T> get() throws InterruptedException {
		return this.holding.get(Long.MAX_VALUE).map(PrioritizedItem::item);
	}

	@Override
	public Optional<T> get(Duration timeout) throws InterruptedException {
		Objects.requireNonNull(timeout, "timeout");
		return this.holding.get(timeoutNanos(timeout)).map(PrioritizedItem::item);
	}

	@Override
	public Optional<PrioritizedItem<T>> getWithPriority() throws InterruptedException {
		return this.holding.get(Long.MAX_VALUE);
	}

	@Override
	public Optional<PrioritizedItem<T>> getWithPriority(Duration timeout) throws InterruptedException {
		Objects.requireNonNull(timeout, "timeout");
		return this.holding.get(timeoutNanos(timeout));
	}

	@Override
	public void done(T item) {
		this.holding.done(item);
	}

	@Override
	public void doneWithoutWaiting(T item) {
		this.holding.doneWithoutWaiting(item);
	}

	@Override
	public DoneResult done(Lease lease) {
		return this.holding.done(lease);
	}

	/**
	 * Writes this instance's heartbeat: what it holds and waits for now. Never waits for
	 * Redis (a heartbeat lost in an outage is written again a second later).
	 */
	private void heartbeat() {
		if (!this.shutdown.isShuttingDown()) {
			this.heartbeats.beat(this.held.count(), this.batcher.waitingTakers(), this.batcher.leasedAhead(),
					this.workersPaused);
		}
	}

	@Override
	public List<QueueInstance> instances() {
		return this.heartbeats.read();
	}

	@Override
	public Optional<Instant> unreachableSince() {
		return this.outage.since();
	}

	@Override
	public long unreplicatedWrites() {
		return this.ack.unreplicated();
	}

	@Override
	public Optional<Lease> lease(T item) {
		return Optional.ofNullable(this.held.findFor(item, Thread.currentThread()));
	}

	@Override
	public int len() {
		this.batcher.awaitDonesAsked();
		return this.views.len();
	}

	@Override
	public int waitingLen() {
		this.batcher.awaitDonesAsked();
		return this.views.waitingLen();
	}

	@Override
	public RedisQueueStats stats() {
		this.batcher.awaitDonesAsked();
		RedisQueueStats stats = this.views.stats();
		if (this.metrics != null) {
			this.metrics.stats(stats);
		}
		return stats;
	}

	@Override
	public Optional<Duration> stalledFor() {
		return this.stallWatch.stalledFor();
	}

	@Override
	public String holder() {
		return this.holder;
	}

	@Override
	public int shards() {
		return this.shards.count();
	}

	@Override
	public Map<String, String> parked() {
		return this.deadLetters.parked();
	}

	@Override
	public void deadLetter(T item, String reason, int attempts, @Nullable Throwable lastError) {
		this.deadLetters.keep(encode(item), reason, attempts, lastError);
	}

	@Override
	public List<DeadLetter> deadLetters() {
		return this.deadLetters.list();
	}

	@Override
	public long deadLetterCount() {
		return stats().deadLetters();
	}

	@Override
	public long deadLettersDropped() {
		return this.deadLetters.dropped();
	}

	@Override
	public boolean requeueDeadLetter(String encoded) {
		return this.deadLetters.requeue(encoded);
	}

	@Override
	public boolean dropDeadLetter(String encoded) {
		return this.deadLetters.drop(encoded);
	}

	@Override
	public boolean requeueParked(String encoded) {
		return this.deadLetters.requeueParked(encoded);
	}

	@Override
	public boolean dropParked(String encoded) {
		return this.deadLetters.dropParked(encoded);
	}

	@Override
	public List<InFlightItem> inFlight() {
		this.batcher.awaitDonesAsked();
		return this.views.inFlight();
	}

	@Override
	public List<T> discardedAtShutdown() {
		return List.of();
	}

	@Override
	public boolean isShuttingDown() {
		return this.shutdown.isShuttingDown();
	}

	@Override
	public int giveBackLeasedAhead() {
		return this.batcher.giveBackLeasedAhead();
	}

	@Override
	public void workersPaused(boolean paused) {
		this.workersPaused = paused;
	}

	@Override
	public boolean pauseEverywhere(String by) {
		boolean changed = this.pauses.pause(by);
		giveBackLeasedAhead();
		return changed;
	}

	@Override
	public boolean resumeEverywhere() {
		return this.pauses.resume();
	}

	@Override
	public Optional<QueueWidePause> pausedEverywhere() {
		return this.pauses.current();
	}

	@Override
	public void shutDown() {
		this.shutdown.shutDown();
	}

	@Override
	public void shutDownWithDrain() throws InterruptedException {
		this.shutdown.shutDownWithDrain(Long.MAX_VALUE);
	}

	@Override
	public boolean shutDownWithDrain(Duration timeout) throws InterruptedException {
		Objects.requireNonNull(timeout, "timeout");
		return this.shutdown.shutDownWithDrain(timeoutNanos(timeout));
	}

	private String encode(T item) {
		Objects.requireNonNull(item, "item");
		return this.codec.encode(item);
	}

	private String now() {
		return (this.redisTimeMicros != null) ? Long.toString(this.redisTimeMicros.getAsLong()) : "";
	}

	/** A caller's timeout: negative as zero, clamped to {@code Long.MAX_VALUE}. */
	private static long timeoutNanos(Duration timeout) {
		return timeout.isNegative() ? 0 : Nanos.of(timeout);
	}

	@Override
	public String toString() {
		return "RedisQueue[" + this.name + ", holder=" + this.holder + "]";
	}

}
