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

import io.github.workqueue.core.DeadLetter;
import io.github.workqueue.core.AddOptions;
import io.github.workqueue.core.PrioritizedItem;
import io.github.workqueue.core.internal.Nanos;
import io.github.workqueue.core.ratelimit.RateLimiter;
import io.github.workqueue.core.trace.AddTraces;
import io.github.workqueue.redis.DoneResult;
import io.github.workqueue.redis.InFlightItem;
import io.github.workqueue.redis.Lease;
import io.github.workqueue.redis.RedisQueue;
import io.github.workqueue.redis.RedisQueueStats;
import io.github.workqueue.redis.QueueInstance;
import io.github.workqueue.redis.QueueWidePause;
import org.jspecify.annotations.Nullable;

import io.github.workqueue.redis.internal.shared.InstanceHeartbeats;
import io.github.workqueue.redis.internal.shared.QueueViews;
import io.github.workqueue.redis.internal.shared.QueueWidePauses;
import io.github.workqueue.redis.internal.shared.SharedFailures;
import io.github.workqueue.redis.internal.shared.SharedRateLimiter;

import io.github.workqueue.redis.internal.batch.Batcher;

/**
 * A {@link RedisQueue}: each operation is one script on Redis (see
 * {@code scripts/*.lua}), so it takes effect atomically there, between the call and its
 * return, for every instance at once. This class answers the interface with parts that
 * {@link RedisQueueParts} wires, each with one job: {@link RedisAdds} (every kind of
 * add), {@link LeaseHolding} (get and done), {@link InstanceShutdown} (shutdown and
 * drain), {@link LeaseRenewer} (renewals, and the checks that run every second),
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

	private final RedisQueueParts<T> parts;

	/**
	 * Creates the queue and starts renewing its leases every third of the lease duration.
	 * @param settings what the builder collected
	 */
	public DefaultRedisQueue(RedisQueueSettings<T> settings) {
		this.parts = new RedisQueueParts<>(settings, this);
	}

	@Override
	public String name() {
		return this.parts.name;
	}

	@Override
	public void add(T item) {
		this.parts.adds.add(item, AddOptions.defaults());
	}

	@Override
	public CompletionStage<Void> addAsync(T item) {
		return this.parts.adds.addAsync(item, AddOptions.defaults());
	}

	@Override
	public CompletionStage<Void> addAsync(T item, AddOptions options) {
		return this.parts.adds.addAsync(item, options);
	}

	@Override
	public CompletionStage<Void> addAfterAsync(T item, Duration delay) {
		return this.parts.adds.addAfterAsync(item, delay);
	}

	@Override
	public CompletionStage<Duration> addRateLimitedAsync(T item) {
		return this.parts.adds.addRateLimitedAsync(item);
	}

	@Override
	public void addAll(Collection<? extends T> items) {
		this.parts.adds.addAll(items);
	}

	@Override
	public void addAll(Collection<? extends T> items, AddOptions options) {
		this.parts.adds.addAll(items, options);
	}

	@Override
	public void add(T item, AddOptions options) {
		this.parts.adds.add(item, options);
	}

	@Override
	public List<String> fairnessKeysOf(T item) {
		return this.parts.adds.fairnessKeysOf(item);
	}

	@Override
	public int defaultPriority() {
		return this.parts.defaultPriority;
	}

	@Override
	public SortedMap<Integer, Integer> lenByPriority() {
		this.parts.batcher.awaitDonesAsked();
		return this.parts.views.lenByPriority();
	}

	@Override
	public Map<String, Integer> lenByFairnessKey() {
		this.parts.batcher.awaitDonesAsked();
		return this.parts.adds.hasFairness() ? this.parts.views.lenByFairnessKey() : Map.of();
	}

	@Override
	public void addAfter(T item, Duration delay) {
		this.parts.adds.addAfter(item, delay);
	}

	@Override
	public Duration addRateLimited(T item) {
		return this.parts.adds.addRateLimited(item);
	}

	@Override
	public void forget(T item) {
		this.parts.failures.forget(this.parts.encode(item));
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
		return removeEncoded(this.parts.encode(item));
	}

	@Override
	public boolean removeEncoded(String encoded) {
		return this.parts.removes.remove(encoded);
	}

	@Override
	public int recordFailedAttempt(T item) {
		return this.parts.failures.recordFailedAttempt(this.parts.encode(item));
	}

	@Override
	public int failedAttempts(T item) {
		return this.parts.failures.failedAttempts(this.parts.encode(item));
	}

	@Override
	public void clearFailedAttempts(T item, boolean forget) {
		this.parts.failures.clearFailedAttempts(this.parts.encode(item), forget);
	}

	@Override
	public int numRequeues(T item) {
		return this.parts.failures.numRequeues(this.parts.encode(item));
	}

	@Override
	public RateLimiter<? super T> rateLimiter() {
		return new SharedRateLimiter<>(this.parts.failures, this.parts::encode, this.parts.configuredLimiter);
	}

	@Override
	public Optional<T> get() throws InterruptedException {
		return this.parts.holding.get(Long.MAX_VALUE).map(PrioritizedItem::item);
	}

	@Override
	public Optional<T> get(Duration timeout) throws InterruptedException {
		Objects.requireNonNull(timeout, "timeout");
		return this.parts.holding.get(timeoutNanos(timeout)).map(PrioritizedItem::item);
	}

	@Override
	public Optional<PrioritizedItem<T>> getWithPriority() throws InterruptedException {
		return this.parts.holding.get(Long.MAX_VALUE);
	}

	@Override
	public Optional<PrioritizedItem<T>> getWithPriority(Duration timeout) throws InterruptedException {
		Objects.requireNonNull(timeout, "timeout");
		return this.parts.holding.get(timeoutNanos(timeout));
	}

	@Override
	public void done(T item) {
		this.parts.holding.done(item);
	}

	@Override
	public void doneWithoutWaiting(T item) {
		this.parts.holding.doneWithoutWaiting(item);
	}

	@Override
	public DoneResult done(Lease lease) {
		return this.parts.holding.done(lease);
	}

	@Override
	public List<QueueInstance> instances() {
		return this.parts.heartbeats.read();
	}

	@Override
	public Optional<Instant> unreachableSince() {
		return this.parts.outage.since();
	}

	@Override
	public long unreplicatedWrites() {
		return this.parts.ack.unreplicated();
	}

	@Override
	public Optional<Lease> lease(T item) {
		return Optional.ofNullable(this.parts.held.findFor(item, Thread.currentThread()));
	}

	/**
	 * {@inheritDoc}
	 * <p>
	 * They came with the lease, from the shard's {@code traces} hash, whichever instance
	 * made the adds. A lease that expired and was granted again comes without them: its
	 * first grant took them.
	 */
	@Override
	public Optional<AddTraces> addTraces(T item) {
		HeldLease lease = this.parts.held.findFor(item, Thread.currentThread());
		return (lease != null) ? Optional.ofNullable(lease.traces) : Optional.empty();
	}

	@Override
	public int len() {
		this.parts.batcher.awaitDonesAsked();
		return this.parts.views.len();
	}

	@Override
	public int waitingLen() {
		this.parts.batcher.awaitDonesAsked();
		return this.parts.views.waitingLen();
	}

	@Override
	public RedisQueueStats stats() {
		this.parts.batcher.awaitDonesAsked();
		RedisQueueStats stats = this.parts.views.stats();
		if (this.parts.metrics != null) {
			this.parts.metrics.stats(stats);
		}
		return stats;
	}

	@Override
	public Optional<Duration> stalledFor() {
		return this.parts.stallWatch.stalledFor();
	}

	@Override
	public String holder() {
		return this.parts.holder;
	}

	@Override
	public int shards() {
		return this.parts.shards.count();
	}

	@Override
	public Map<String, String> parked() {
		return this.parts.deadLetters.parked();
	}

	@Override
	public void deadLetter(T item, String reason, int attempts, @Nullable Throwable lastError) {
		this.parts.deadLetters.keep(this.parts.encode(item), reason, attempts, lastError);
	}

	@Override
	public List<DeadLetter> deadLetters() {
		return this.parts.deadLetters.list();
	}

	@Override
	public long deadLetterCount() {
		return stats().deadLetters();
	}

	@Override
	public long deadLettersDropped() {
		return this.parts.deadLetters.dropped();
	}

	@Override
	public boolean requeueDeadLetter(String encoded) {
		return this.parts.deadLetters.requeue(encoded);
	}

	@Override
	public boolean dropDeadLetter(String encoded) {
		return this.parts.deadLetters.drop(encoded);
	}

	@Override
	public boolean requeueParked(String encoded) {
		return this.parts.deadLetters.requeueParked(encoded);
	}

	@Override
	public boolean dropParked(String encoded) {
		return this.parts.deadLetters.dropParked(encoded);
	}

	@Override
	public List<InFlightItem> inFlight() {
		this.parts.batcher.awaitDonesAsked();
		return this.parts.views.inFlight();
	}

	@Override
	public List<T> discardedAtShutdown() {
		return List.of();
	}

	@Override
	public boolean isShuttingDown() {
		return this.parts.shutdown.isShuttingDown();
	}

	@Override
	public int giveBackLeasedAhead() {
		return this.parts.batcher.takes().giveBackLeasedAhead();
	}

	@Override
	public void workersPaused(boolean paused) {
		this.parts.workersPaused = paused;
	}

	@Override
	public boolean pauseEverywhere(String by) {
		boolean changed = this.parts.pauses.pause(by);
		giveBackLeasedAhead();
		return changed;
	}

	@Override
	public boolean resumeEverywhere() {
		return this.parts.pauses.resume();
	}

	@Override
	public Optional<QueueWidePause> pausedEverywhere() {
		return this.parts.pauses.current();
	}

	@Override
	public void shutDown() {
		this.parts.shutdown.shutDown();
	}

	@Override
	public void shutDownWithDrain() throws InterruptedException {
		this.parts.shutdown.shutDownWithDrain(Long.MAX_VALUE);
	}

	@Override
	public boolean shutDownWithDrain(Duration timeout) throws InterruptedException {
		Objects.requireNonNull(timeout, "timeout");
		return this.parts.shutdown.shutDownWithDrain(timeoutNanos(timeout));
	}

	/** A caller's timeout: negative as zero, clamped to {@code Long.MAX_VALUE}. */
	private static long timeoutNanos(Duration timeout) {
		return timeout.isNegative() ? 0 : Nanos.of(timeout);
	}

	@Override
	public String toString() {
		return "RedisQueue[" + this.parts.name + ", holder=" + this.parts.holder + "]";
	}

}
