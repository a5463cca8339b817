package io.github.workqueue.redis.internal;

import java.lang.System.Logger.Level;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Objects;
import java.util.Optional;
import java.util.SortedMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.Consumer;
import java.util.function.LongSupplier;

import io.github.workqueue.core.internal.AddAllItems;
import io.github.workqueue.core.DeadLetter;
import io.github.workqueue.core.AddOptions;
import io.github.workqueue.core.FairnessKeyExtractor;
import io.github.workqueue.core.PrioritizedItem;
import io.github.workqueue.core.ratelimit.RateLimiter;
import io.github.workqueue.redis.DoneResult;
import io.github.workqueue.redis.InFlightItem;
import io.github.workqueue.redis.ItemCodec;
import io.github.workqueue.redis.LateDoneOutcome;
import io.github.workqueue.redis.Lease;
import io.github.workqueue.redis.RedisQueue;
import io.github.workqueue.redis.RedisQueueStats;
import io.github.workqueue.redis.QueueInstance;
import io.github.workqueue.redis.QueueWidePause;
import io.github.workqueue.redis.UnreplicatedWriteException;
import io.lettuce.core.RedisException;
import io.lettuce.core.ScriptOutputType;
import org.jspecify.annotations.Nullable;
import tools.jackson.databind.ObjectMapper;

/**
 * A {@link RedisQueue}: each operation is one script on Redis (see
 * {@code scripts/*.lua}), so it takes effect atomically there, between the call and its
 * return, for every instance at once.
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

	private static final System.Logger logger = System.getLogger(RedisQueue.class.getName());

	private static final ObjectMapper JSON = new ObjectMapper();

	/** The most given-up dead letters {@link #deadLetters()} lists. */
	private static final int MOST_DEAD_LETTERS_LISTED = 1000;

	private final String name;

	private final RedisLink link;

	private final Shards shards;

	private final ItemCodec<T> codec;

	private final String holder;

	private final Duration leaseDuration;

	private final String leaseMicros;

	private final String maxRedeliveries;

	private final RateLimiter<? super T> configuredLimiter;

	private final @Nullable LongSupplier redisTimeMicros;

	private final long longestBlockNanos;

	private final @Nullable RedisQueueMetrics metrics;

	private final Batcher batcher;

	private final QueueViews views;

	private final LeaseReturns returns;

	private final SharedFailures failures;

	private final ReplicaAck ack;

	private final SharedDeadLetters deadLetters;

	private final LongAdder deadLettersDropped = new LongAdder();

	private final InstanceHeartbeats heartbeats;

	private final ScriptedAdds scriptedAdds;

	private final DoneReports doneReports;

	private final QueueWidePauses pauses;

	private final OutageLog outage;

	private final HeldLeases<T> held = new HeldLeases<>();

	private final LeaseRenewer<T> renewer;

	private final StallWatch stallWatch;

	private final Object drainMonitor = new Object();

	private final int defaultPriority;

	private final @Nullable FairnessKeyExtractor<? super T> fairness;

	/**
	 * Default priority 0 and no fairness: delayed and rate-limited adds that name no
	 * priority run the scripts without priorities.
	 */
	private final boolean plainAdds;

	private volatile boolean shuttingDown;

	/**
	 * Counts shutDown() calls, so that a drain stops waiting at the first one after it
	 * began.
	 */
	private long shutDownCalls;

	/**
	 * Creates the queue and starts renewing its leases every third of the lease duration.
	 * @param settings what the builder collected
	 */
	public DefaultRedisQueue(Settings<T> settings) {
		this.name = settings.name();
		this.link = settings.link();
		this.shards = new Shards(settings.prefix(), settings.name(), settings.shards());
		this.codec = settings.codec();
		this.holder = settings.holder().replaceAll("\\s", "_");
		this.leaseDuration = settings.leaseDuration();
		this.leaseMicros = Long.toString(LimiterSpec.micros(settings.leaseDuration()));
		this.maxRedeliveries = Integer.toString(settings.maxRedeliveries());
		this.configuredLimiter = settings.rateLimiter();
		this.redisTimeMicros = settings.redisTimeMicros();
		this.longestBlockNanos = settings.longestBlock().toNanos();
		this.metrics = settings.metrics();
		this.defaultPriority = settings.defaultPriority();
		this.fairness = settings.fairness();
		this.plainAdds = this.defaultPriority == 0 && this.fairness == null;
		this.outage = new OutageLog(this.name, this.link::isClosed);
		this.ack = new ReplicaAck(this.name, settings.replicasAck(), settings.replicasAckTimeout(),
				(this.metrics != null) ? this.metrics.unreplicatedWrites() : null);
		this.batcher = new Batcher(this.name, this.link, this.shards, this::now,
				new String[] { this.holder, this.leaseMicros, this.maxRedeliveries }, this.leaseDuration,
				this.longestBlockNanos, settings.prefetch(), this.outage, this.ack);
		this.views = new QueueViews(this.link, this.shards, this::now);
		this.deadLetters = new SharedDeadLetters(this.link, this.shards.keys(0), this::now);
		this.doneReports = new DoneReports(this.name, this.link, this.metrics, settings.lateDoneListener());
		this.heartbeats = new InstanceHeartbeats(this.link, this.shards.keys(0).instances(), this.holder);
		this.pauses = new QueueWidePauses(this.name, this.link, this.shards, this::now);
		this.returns = new LeaseReturns(this.name, this.link, this.shards, this::now);
		this.failures = new SharedFailures(this.link, this.shards, LimiterSpec.of(settings.rateLimiter()), this::now);
		this.scriptedAdds = new ScriptedAdds(this.name, this.link, this.shards, this.batcher, this.failures, this.ack,
				this::now);
		this.renewer = new LeaseRenewer<>(this.name, this.link, this.shards, this.held, this.batcher::buffered,
				this.leaseMicros, this::now, this.metrics, this.views, this.outage, this::signalDrain);
		this.renewer.start(settings.leaseDuration());
		this.stallWatch = new StallWatch(this.name, this.batcher, this.link, this.metrics);
		this.renewer.everySecond(this.stallWatch::check);
		this.renewer.everySecond(this::heartbeat);
		this.link.beforeClose(this.batcher::awaitPendingDones);
	}

	/**
	 * What a queue is made of.
	 *
	 * @param <T> the type of the items
	 * @param name the queue's name
	 * @param prefix the first part of its keys' hash tag
	 * @param shards how many shards the queue is spread over
	 * @param link the connection
	 * @param codec the item codec
	 * @param holder this instance's name in leases
	 * @param leaseDuration how long a lease lasts without renewal
	 * @param maxRedeliveries expiries in a row before an item is parked
	 * @param rateLimiter the limiter, of the core's kinds
	 * @param redisTimeMicros the time to use instead of Redis's, or {@code null}
	 * @param longestBlock the longest single blocking wait
	 * @param prefetch the most leases taken ahead of the threads that wait in get
	 * @param metrics where metrics go, or {@code null} for none
	 * @param defaultPriority the priority of adds that name none
	 * @param fairness the fairness key extractor, or {@code null} for none
	 * @param lateDoneListener told the final outcome of each done that got no answer in
	 * time
	 * @param replicasAck how many replicas confirm each add and done before it returns
	 * @param replicasAckTimeout how long an add or done waits for them
	 */
	public record Settings<T>(String name, String prefix, int shards, RedisLink link, ItemCodec<T> codec, String holder,
			Duration leaseDuration, int maxRedeliveries, RateLimiter<? super T> rateLimiter,
			@Nullable LongSupplier redisTimeMicros, Duration longestBlock, int prefetch,
			@Nullable RedisQueueMetrics metrics, int defaultPriority,
			@Nullable FairnessKeyExtractor<? super T> fairness, Consumer<? super LateDoneOutcome> lateDoneListener,
			int replicasAck, Duration replicasAckTimeout) {
	}

	@Override
	public String name() {
		return this.name;
	}

	@Override
	public void add(T item) {
		addWith(item, AddOptions.defaults());
	}

	/**
	 * {@inheritDoc}
	 * <p>
	 * The adds are queued for the batches all at once, so that one round trip per shard
	 * carries up to 256 of them, and this returns once Redis answered every one. If one
	 * failed or got no answer in time, its exception is thrown (an
	 * {@link io.github.workqueue.redis.UnconfirmedAddException} when Redis may have
	 * applied it) after the adds before it were answered; the adds after it are sent all
	 * the same, and whether they were applied is not known: adding the same items again
	 * is safe, as an item already queued is not queued twice.
	 */
	@Override
	public void addAll(Collection<? extends T> items) {
		addAllNow(AddAllItems.checked(items), this.defaultPriority);
	}

	/**
	 * {@inheritDoc}
	 * <p>
	 * Without a delay or rate-limiting the adds go together, as
	 * {@link #addAll(Collection)}'s do; otherwise each is a script of its own, as
	 * {@link #add(Object, AddOptions)} is.
	 */
	@Override
	public void addAll(Collection<? extends T> items, AddOptions options) {
		Objects.requireNonNull(options, "options");
		List<T> checked = AddAllItems.checked(items);
		long delayMicros = options.delay().isNegative() ? 0 : LimiterSpec.micros(options.delay());
		if (delayMicros > 0 || options.isRateLimited()) {
			checked.forEach((item) -> addWith(item, options));
		}
		else {
			addAllNow(checked, options.priorityOr(this.defaultPriority));
		}
	}

	/** Adds the items at the priority together, in the next batches. */
	private void addAllNow(List<T> items, int priority) {
		List<BatchRequest.Add> requests = new ArrayList<>(items.size());
		for (T item : items) {
			String encoded = encode(item);
			if (!droppedAfterShutdown(item)) {
				requests.add(this.batcher.request(encoded, priority, fairnessJson(item)));
			}
		}
		if (!requests.isEmpty()) {
			RedisQueueMetrics counted = this.metrics;
			this.batcher.addAll(requests, (counted != null) ? counted::added : () -> {
			});
		}
	}

	/**
	 * {@inheritDoc}
	 * <p>
	 * Without a delay or rate-limiting the add goes in the next batch, as a plain add
	 * does; otherwise it is one script of its own ({@code addWith.lua}), and counts a
	 * retry, as {@code addAfter} does.
	 */
	@Override
	public void add(T item, AddOptions options) {
		addWith(item, options);
	}

	/** The add with options; returns the delay used, zero when the add was dropped. */
	private Duration addWith(T item, AddOptions options) {
		Objects.requireNonNull(options, "options");
		String encoded = encode(item);
		if (droppedAfterShutdown(item)) {
			return Duration.ZERO;
		}
		long delayMicros = options.delay().isNegative() ? 0 : LimiterSpec.micros(options.delay());
		int priority = options.priorityOr(this.defaultPriority);
		if (delayMicros == 0 && !options.isRateLimited()) {
			boolean made = this.batcher.add(this.batcher.request(encoded, priority, fairnessJson(item)));
			if (made && this.metrics != null) {
				this.metrics.added();
			}
			return Duration.ZERO;
		}
		boolean retry = delayMicros > 0 || options.isRateLimited();
		if (retry && this.metrics != null) {
			this.metrics.retried();
		}
		List<Long> made = this.scriptedAdds.addWith(encoded, priority, fairnessJson(item), delayMicros,
				options.isRateLimited());
		if (made.get(0) == 1 && made.get(1) <= 0 && this.metrics != null) {
			this.metrics.added();
		}
		return Duration.ofNanos(Math.max(0, made.get(1)) * 1000);
	}

	private String fairnessJson(T item) {
		return (this.fairness != null) ? JSON.writeValueAsString(fairnessKeysOf(item)) : "";
	}

	@Override
	public List<String> fairnessKeysOf(T item) {
		return FairnessKeyExtractor.keysOf(this.fairness, item, this.name);
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
		return (this.fairness != null) ? this.views.lenByFairnessKey() : Map.of();
	}

	@Override
	public void addAfter(T item, Duration delay) {
		Objects.requireNonNull(delay, "delay");
		if (!this.plainAdds) {
			add(item, AddOptions.delay(delay));
			return;
		}
		String encoded = encode(item);
		if (droppedAfterShutdown(item)) {
			return;
		}
		if (this.metrics != null) {
			this.metrics.retried();
		}
		long micros = delay.isNegative() ? 0 : LimiterSpec.micros(delay);
		if (micros == 0) {
			add(item);
			return;
		}
		this.scriptedAdds.addAfter(encoded, micros);
	}

	@Override
	public Duration addRateLimited(T item) {
		if (!this.plainAdds) {
			return addWith(item, AddOptions.rateLimited());
		}
		String encoded = encode(item);
		if (droppedAfterShutdown(item)) {
			return Duration.ZERO;
		}
		if (this.metrics != null) {
			this.metrics.retried();
		}
		return this.scriptedAdds.addRateLimited(encoded);
	}

	@Override
	public void forget(T item) {
		this.failures.forget(encode(item));
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
		return new SharedRateLimiter();
	}

	@Override
	public Optional<T> get() throws InterruptedException {
		return get(Long.MAX_VALUE).map(PrioritizedItem::item);
	}

	@Override
	public Optional<T> get(Duration timeout) throws InterruptedException {
		Objects.requireNonNull(timeout, "timeout");
		return get(timeout.isNegative() ? 0 : saturatedNanos(timeout)).map(PrioritizedItem::item);
	}

	@Override
	public Optional<PrioritizedItem<T>> getWithPriority() throws InterruptedException {
		return get(Long.MAX_VALUE);
	}

	@Override
	public Optional<PrioritizedItem<T>> getWithPriority(Duration timeout) throws InterruptedException {
		Objects.requireNonNull(timeout, "timeout");
		return get(timeout.isNegative() ? 0 : saturatedNanos(timeout));
	}

	/**
	 * Waits for a lease from the batches this instance sends (see {@link Batcher}); parks
	 * an item that cannot be decoded and waits again.
	 */
	private Optional<PrioritizedItem<T>> get(long timeoutNanos) throws InterruptedException {
		long start = System.nanoTime();
		boolean first = true;
		while (true) {
			if (Thread.interrupted()) {
				throw new InterruptedException();
			}
			if (this.shuttingDown) {
				return Optional.empty();
			}
			long remaining = remaining(start, timeoutNanos);
			Grant grant = (first || remaining > 0) ? this.batcher.take(Math.max(0, remaining)) : null;
			first = false;
			if (grant == null) {
				return Optional.empty();
			}
			Optional<PrioritizedItem<T>> taken = hold(grant);
			if (taken.isPresent() || this.shuttingDown) {
				return taken;
			}
		}
	}

	/**
	 * Records the lease the get script granted to the calling thread, or parks an item
	 * that cannot be decoded.
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
			this.link.run(Script.PARK, ScriptOutputType.INTEGER, keysOf(encoded), now(), encoded, Long.toString(token),
					reason);
			logger.log(Level.ERROR, "workqueue '" + this.name + "': parked item " + encoded + ", which " + reason);
			return Optional.empty();
		}
		HeldLease lease = new HeldLease(this, item, encoded, token, grant.deadlineMicros(), grant.sentNanos(),
				System.nanoTime(), Thread.currentThread(), this.leaseDuration.toNanos());
		this.held.add(item, lease);
		if (this.shuttingDown) {
			// shutDown may have released the leases before this one was recorded: give it
			// back.
			if (this.held.remove(item, lease)) {
				release(List.of(lease));
			}
			return Optional.empty();
		}
		if (this.metrics != null) {
			this.metrics.taken(grant.queuedMicros());
		}
		return Optional.of(new PrioritizedItem<>(item, grant.priority()));
	}

	/**
	 * {@inheritDoc}
	 * <p>
	 * Ends the calling thread's lease on the item (see {@link RedisQueue#done(Object)}).
	 */
	@Override
	public void done(T item) {
		Objects.requireNonNull(item, "item");
		HeldLease lease = this.held.removeFor(item, Thread.currentThread());
		if (lease != null) {
			end(lease, true);
		}
	}

	@Override
	public void doneWithoutWaiting(T item) {
		Objects.requireNonNull(item, "item");
		HeldLease lease = this.held.removeFor(item, Thread.currentThread());
		if (lease != null) {
			endLater(lease);
		}
	}

	/**
	 * Ends a lease that left {@link #held} in the next batch without waiting for Redis's
	 * answer (group commit): a rejection is logged and counted when it comes, and the
	 * lease's outcome completed.
	 */
	private void endLater(HeldLease lease) {
		if (this.metrics != null) {
			this.metrics.finished(System.nanoTime() - lease.takenNanos);
		}
		this.batcher.doneLater(lease, System.nanoTime() + this.batcher.askingTime().toNanos(),
				(accepted) -> this.doneReports.answered(lease, accepted));
		ended();
	}

	@Override
	public DoneResult done(Lease lease) {
		Objects.requireNonNull(lease, "lease");
		if (!(lease instanceof HeldLease held) || held.grantor != this) {
			throw new IllegalArgumentException(lease + " was not granted by " + this);
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
	 * Runs the done script for a lease that left {@link #held}, and reports the outcome;
	 * one that Redis did not answer in time is reported when it is known
	 * ({@link DoneReports#answeredLate}).
	 * @param first whether this done took the lease out of {@link #held}, rather than
	 * repeating an earlier done
	 */
	private DoneResult end(HeldLease lease, boolean first) {
		if (first && this.metrics != null) {
			this.metrics.finished(System.nanoTime() - lease.takenNanos);
		}
		Boolean accepted;
		try {
			accepted = this.batcher.done(lease, System.nanoTime() + this.batcher.askingTime().toNanos(),
					(outcome) -> this.doneReports.answeredLate(lease, outcome));
		}
		catch (UnreplicatedWriteException ex) {
			// Accepted by the master: the lease has ended there.
			lease.outcome.complete(DoneResult.ACCEPTED);
			ended();
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
		ended();
		return result;
	}

	/**
	 * A lease left {@link #held}: a drain may end, and with the last one the renewals.
	 */
	private void ended() {
		signalDrain();
		if (this.shuttingDown && this.held.isEmpty()) {
			this.renewer.stop();
		}
	}

	/**
	 * Writes this instance's heartbeat: what it holds and waits for now. Never waits for
	 * Redis (a heartbeat lost in an outage is written again a second later).
	 */
	private void heartbeat() {
		if (!this.shuttingDown) {
			this.heartbeats.beat(this.held.count(), this.batcher.waitingTakers(), this.batcher.leasedAhead());
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
		return this.views.stats();
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
		this.batcher.awaitDonesAsked();
		return this.views.parked();
	}

	/**
	 * {@inheritDoc}
	 * <p>
	 * Kept queue-wide in Redis, at most 10,000 (the oldest dropped past that, with a
	 * warning).
	 */
	@Override
	public void deadLetter(T item, String reason, int attempts, @Nullable Throwable lastError) {
		String encoded = encode(item);
		long dropped = this.deadLetters.keep(encoded, reason, attempts, DeadLetter.describe(lastError));
		if (dropped > 0) {
			this.deadLettersDropped.add(dropped);
			logger.log(Level.WARNING, "workqueue '" + this.name + "': more than " + SharedDeadLetters.CAPACITY
					+ " dead letters; dropped the oldest " + dropped);
		}
	}

	/**
	 * {@inheritDoc}
	 * <p>
	 * The items given up (newest first, at most 1,000 listed) and then the parked ones.
	 */
	@Override
	public List<DeadLetter> deadLetters() {
		List<DeadLetter> all = new ArrayList<>(this.deadLetters.newest(MOST_DEAD_LETTERS_LISTED));
		parked().forEach((encoded, why) -> all.add(new DeadLetter(encoded, "parked: " + why, 0, null, null)));
		return all;
	}

	/**
	 * {@inheritDoc}
	 * <p>
	 * Read from Redis: every instance's, given up and parked.
	 */
	@Override
	public long deadLetterCount() {
		return stats().deadLetters();
	}

	/**
	 * {@inheritDoc}
	 * <p>
	 * Those this instance's dead letters pushed out of the queue-wide store.
	 */
	@Override
	public long deadLettersDropped() {
		return this.deadLettersDropped.sum();
	}

	@Override
	public boolean requeueDeadLetter(String encoded) {
		if (requeueParked(encoded)) {
			return true;
		}
		if (!this.deadLetters.drop(encoded)) {
			return false;
		}
		this.batcher.add(encoded);
		return true;
	}

	@Override
	public boolean dropDeadLetter(String encoded) {
		return dropParked(encoded) || this.deadLetters.drop(encoded);
	}

	@Override
	public boolean requeueParked(String encoded) {
		this.batcher.awaitDonesAsked();
		return this.views.unpark(encoded, true);
	}

	@Override
	public boolean dropParked(String encoded) {
		this.batcher.awaitDonesAsked();
		return this.views.unpark(encoded, false);
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
		return this.shuttingDown;
	}

	@Override
	public int giveBackLeasedAhead() {
		return this.batcher.giveBackLeasedAhead();
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

	/**
	 * Stops this instance taking and accepting items, and gives back the items leased
	 * ahead of its workers. The items its workers are processing keep their leases
	 * (renewed until {@code done}), so that no other instance takes them meanwhile; a
	 * drain in progress stops waiting and gives back the leases still held.
	 */
	@Override
	public void shutDown() {
		boolean first = !this.shuttingDown;
		this.shuttingDown = true;
		if (first) {
			// Gone from the instances list at once, not after its heartbeat ages.
			this.heartbeats.stop();
		}
		this.batcher.shutDown();
		synchronized (this.drainMonitor) {
			this.shutDownCalls++;
			this.drainMonitor.notifyAll();
		}
		if (this.held.isEmpty()) {
			this.renewer.stop();
		}
	}

	@Override
	public void shutDownWithDrain() throws InterruptedException {
		shutDownWithDrain(Long.MAX_VALUE);
	}

	@Override
	public boolean shutDownWithDrain(Duration timeout) throws InterruptedException {
		Objects.requireNonNull(timeout, "timeout");
		return shutDownWithDrain(timeout.isNegative() ? 0 : saturatedNanos(timeout));
	}

	/**
	 * Waits until this instance's workers have finished their items, the timeout passes
	 * or {@link #shutDown()} is called; then gives back the leases still held, whose
	 * items are queued again at once for the other instances.
	 */
	private boolean shutDownWithDrain(long timeoutNanos) throws InterruptedException {
		this.shuttingDown = true;
		this.batcher.shutDown();
		long start = System.nanoTime();
		try {
			synchronized (this.drainMonitor) {
				long released = this.shutDownCalls;
				while (!this.held.isEmpty() && this.shutDownCalls == released) {
					long remaining = remaining(start, timeoutNanos);
					if (remaining <= 0) {
						break;
					}
					TimeUnit.NANOSECONDS.timedWait(this.drainMonitor, remaining);
				}
				return this.held.isEmpty();
			}
		}
		finally {
			giveBackLeases();
			// Within the drain's time: the dones asked without waiting are on their way.
			this.batcher.awaitPendingDones(remaining(start, timeoutNanos));
		}
	}

	/**
	 * Stops renewing and gives back the leases still held: their items are queued again
	 * at once. A later {@code done} of such an item changes nothing.
	 */
	private void giveBackLeases() {
		this.renewer.stop();
		List<HeldLease> leases = this.held.removeAll();
		if (!leases.isEmpty()) {
			release(leases);
		}
	}

	private void release(List<HeldLease> leases) {
		leases.forEach((lease) -> {
			lease.givenBack = true;
			lease.outcome.complete(DoneResult.REJECTED);
		});
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

	private void signalDrain() {
		if (this.shuttingDown) {
			synchronized (this.drainMonitor) {
				this.drainMonitor.notifyAll();
			}
		}
	}

	private QueueKeys shardOf(String encoded) {
		return this.shards.keys(this.shards.of(encoded));
	}

	private String[] keysOf(String encoded) {
		return shardOf(encoded).all();
	}

	private String encode(T item) {
		Objects.requireNonNull(item, "item");
		return this.codec.encode(item);
	}

	private boolean droppedAfterShutdown(T item) {
		if (!this.shuttingDown) {
			return false;
		}
		if (this.metrics != null) {
			this.metrics.droppedAfterShutdown();
		}
		logger.log(Level.DEBUG,
				() -> "workqueue '" + this.name + "' is shutting down on this instance: dropped " + item);
		return true;
	}

	private String now() {
		return (this.redisTimeMicros != null) ? Long.toString(this.redisTimeMicros.getAsLong()) : "";
	}

	private static long remaining(long start, long timeoutNanos) {
		return (timeoutNanos == Long.MAX_VALUE) ? Long.MAX_VALUE : timeoutNanos - (System.nanoTime() - start);
	}

	private static long saturatedNanos(Duration duration) {
		try {
			return duration.toNanos();
		}
		catch (ArithmeticException ex) {
			return Long.MAX_VALUE;
		}
	}

	@Override
	public String toString() {
		return "RedisQueue[" + this.name + ", holder=" + this.holder + "]";
	}

	/**
	 * The configured limiter evaluated on Redis, so that its state is shared by all
	 * instances.
	 */
	private final class SharedRateLimiter implements RateLimiter<T> {

		@Override
		public Duration when(T item) {
			return DefaultRedisQueue.this.failures.when(encode(item));
		}

		@Override
		public void forget(T item) {
			DefaultRedisQueue.this.forget(item);
		}

		@Override
		public int numRequeues(T item) {
			return DefaultRedisQueue.this.numRequeues(item);
		}

		@Override
		public String toString() {
			return DefaultRedisQueue.this.configuredLimiter + " shared on Redis";
		}

	}

}
