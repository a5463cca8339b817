package io.github.workqueue.redis.internal.batch;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executor;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.Consumer;
import java.util.function.Supplier;

import io.github.workqueue.redis.UnconfirmedAddException;
import io.lettuce.core.RedisException;
import org.jspecify.annotations.Nullable;

import io.github.workqueue.redis.internal.link.OutageLog;
import io.github.workqueue.redis.internal.link.RedisLink;
import io.github.workqueue.redis.internal.link.ReplicaAck;
import io.github.workqueue.redis.internal.link.WakeHints;

import io.github.workqueue.redis.internal.shared.Shards;

/**
 * Sends to Redis together what one instance's threads ask of one queue: adds, dones, and
 * leases for the threads waiting in {@code get}, in one run of {@code batch.lua} per
 * shard (adds first, then dones, then leases, so that an item added here can go to a
 * getter here in the same round trip). One thread, the sender ({@link BatchSender}),
 * makes the batches and sends them without waiting for the replies: a shard has at most
 * two parts on their way ({@link SentPart}s, {@link SentParts}), and while it has two,
 * the next part for that shard gathers; the other shards' parts go as soon as they may.
 * So a round trip carries more the more threads ask, Redis runs one script where it ran
 * one per call, and a shard that does not answer (a failover, a partition) holds up the
 * requests for its own keys only. This class is the callers' side; the sender reads the
 * replies with {@link BatchReplies}, and the takers' asks go shard by shard as
 * {@link LeaseAsks} says.
 *
 * <p>
 * The threads waiting in {@code get} and the leases taken ahead of them are
 * {@link LeaseTakes}' ({@link #takes()}).
 *
 * <p>
 * Through an outage, adds fail at once; dones are asked again with backoff until Redis
 * answers or their last attempt is due (a late outcome is handed to the queue); takers
 * keep waiting until their timeout. Every caller's wait is bounded
 * ({@link RedisLink#requestBoundNanos()}): an add that got no answer by then throws, a
 * done reports no answer yet.
 *
 * <p>
 * <b>Concurrency.</b> Thread-safe. The state shared with the sender is a
 * {@link BatchState}, which owns the one monitor that guards it (never held across I/O or
 * a wait); this class takes no lock of its own. Each request's outcome is guarded by its
 * own monitor and written once; each {@link Taker} by its own.
 *
 * <p>
 * Public only for the queue's classes one package up; not an API.
 */
public final class Batcher {

	private final String name;

	private final RedisLink link;

	private final Shards shards;

	private final LeaseReturns returns;

	private final Duration leaseDuration;

	/** One listener per shard. */
	private final List<WakeHints> hints;

	/**
	 * The requests waiting for a batch, the takers and their asks, the leases taken ahead
	 * and the sent parts.
	 */
	private final BatchState state;

	private final BatchSender sender;

	/**
	 * Per shard, the room for adds whose callers do not wait ({@link #addAsync}): a
	 * permit per add until its outcome came, so that a shard that does not answer holds
	 * its own producers only.
	 */
	private final List<Semaphore> asyncRoom;

	/** Dones asked without waiting ({@link #doneLater}) whose outcome has not come. */
	private final Set<BatchRequest.Done> pendingDones = ConcurrentHashMap.newKeySet();

	/**
	 * Per thread, its last done asked without waiting: an add it makes later for the same
	 * shard goes in a later part (a part runs its adds before its dones).
	 */
	private final ThreadLocal<BatchRequest.Done> lastDeferred = new ThreadLocal<>();

	/** The takers' side: waiting for a lease, and the leases taken ahead. */
	private final LeaseTakes takes;

	/**
	 * @param now the time as Redis's scripts take it
	 * @param fixedArgs holder, lease in microseconds, most expiries
	 * @param ack how many replicas confirm the writes of a batch
	 */
	public Batcher(String name, RedisLink link, Shards shards, Supplier<String> now, String[] fixedArgs,
			Duration leaseDuration, long longestBlockNanos, LeaseAheadSizing prefetch, int asyncAdds, OutageLog outage,
			ReplicaAck ack) {
		this.name = name;
		this.link = link;
		this.shards = shards;
		this.returns = new LeaseReturns(name, link, shards, now);
		this.leaseDuration = leaseDuration;
		int count = shards.count();
		List<WakeHints> listeners = new ArrayList<>(count);
		for (int shard = 0; shard < count; shard++) {
			listeners.add(link.wakeHints(shards.keys(shard).wake(), Duration.ofNanos(longestBlockNanos)));
		}
		this.hints = List.copyOf(listeners);
		List<Semaphore> room = new ArrayList<>(count);
		for (int shard = 0; shard < count; shard++) {
			room.add(new Semaphore(asyncAdds));
		}
		this.asyncRoom = List.copyOf(room);
		long start = System.nanoTime();
		this.state = new BatchState(new PendingRequests(count, start), new LeaseAsks(count, longestBlockNanos),
				new LeaseAheadBuffer(prefetch, leaseDuration, count, longestBlockNanos, start), new SentParts(count));
		BatchReplies replies = new BatchReplies(this.state, name, link, shards, this.returns, this.hints, outage, ack);
		this.sender = new BatchSender(this.state, name, link, shards, now, fixedArgs, askingTime(), replies, ack);
		this.state.attach(this.sender);
		this.takes = new LeaseTakes(this.state, this.returns, link);
	}

	/** The takers' side: waiting for a lease, and the leases taken ahead. */
	public LeaseTakes takes() {
		return this.takes;
	}

	/**
	 * Adds an item, in the next batch.
	 * @return whether the add made the item dirty (rather than joining an earlier add)
	 * @throws RedisException if the batch failed or no answer came in time
	 */
	public boolean add(String encoded) {
		return add(request(encoded, 0, "", null));
	}

	/**
	 * Adds an item, in the next batch.
	 * @param request the add, made with {@link #request}
	 * @return whether the add made the item dirty (rather than joining an earlier add)
	 * @throws RedisException if the batch failed or no answer came in time
	 */
	public boolean add(BatchRequest.Add request) {
		queue(request);
		return answer(request, this.link.requestBoundNanos());
	}

	/**
	 * Queues an add for its shard's next part, after the calling thread's done without
	 * waiting, and wakes the sender.
	 */
	private void queue(BatchRequest.Add request) {
		this.state.queueAdd(request, this.lastDeferred.get());
	}

	/**
	 * Adds an item in the next batch without waiting for Redis's answer. The caller waits
	 * only while its shard has as many adds unanswered as the bound allows
	 * (back-pressure).
	 * @param priority the add's priority
	 * @param keys the item's fairness keys as JSON, or empty
	 * @param trace the trace context the add carries, or null
	 * @return whether the add made the item dirty, completed off the sender thread; or
	 * the add's failure: an {@link UnconfirmedAddException} if no answer came within
	 * {@link RedisLink#requestBoundNanos()}
	 */
	public CompletableFuture<Boolean> addAsync(String encoded, int priority, String keys, @Nullable String trace) {
		BatchRequest.Add request = request(encoded, priority, keys, trace, new CompletableFuture<>());
		CompletableFuture<Boolean> outcome = request.async;
		Semaphore room = this.asyncRoom.get(request.shard);
		room.acquireUninterruptibly();
		outcome.whenComplete((made, failure) -> room.release());
		queue(request);
		long bound = this.link.requestBoundNanos();
		return outcome.orTimeout(bound, TimeUnit.NANOSECONDS)
			.exceptionallyCompose((failure) -> CompletableFuture
				.failedFuture((failure instanceof TimeoutException) ? unanswered(encoded, bound) : failure));
	}

	/**
	 * Adds items, in order, in the next batches: all are queued at once, so that a part
	 * carries up to {@link #ShardBatch.MOST_PER_PART} of them, and the caller waits for
	 * each answer in turn, at most {@link RedisLink#requestBoundNanos()} after the one
	 * before it came.
	 * @param requests the adds, made with {@link #request}
	 * @param madeDirty run once for each add answered as having made its item dirty
	 * (rather than joining an earlier add), before any later answer is waited for
	 * @throws RedisException the first add's failure, if one failed or no answer came in
	 * time; the adds after it are still sent, and may or may not be applied
	 */
	public void addAll(List<BatchRequest.Add> requests, Runnable madeDirty) {
		this.state.queueAdds(requests, this.lastDeferred.get());
		long bound = this.link.requestBoundNanos();
		for (BatchRequest.Add request : requests) {
			if (answer(request, bound)) {
				madeDirty.run();
			}
		}
	}

	/**
	 * An add request, for {@link #add(BatchRequest.Add)} or {@link #addAll}: a plain add
	 * (which {@code batch.lua} reads and writes with fewer commands) at priority 0
	 * without fairness keys, whatever named it.
	 * @param priority the add's priority
	 * @param keys the item's fairness keys as JSON, or empty
	 * @param trace the trace context the add carries, or null
	 */
	public BatchRequest.Add request(String encoded, int priority, String keys, @Nullable String trace) {
		return request(encoded, priority, keys, trace, null);
	}

	private BatchRequest.Add request(String encoded, int priority, String keys, @Nullable String trace,
			@Nullable CompletableFuture<Boolean> async) {
		boolean plain = priority == 0 && keys.isEmpty();
		return new BatchRequest.Add(this.shards.of(encoded), encoded, plain ? null : Integer.toString(priority),
				plain ? "" : keys, trace, async);
	}

	private UnconfirmedAddException unanswered(String encoded, long boundNanos) {
		return new UnconfirmedAddException(this.name, encoded,
				"no answer from Redis within " + TimeUnit.NANOSECONDS.toMillis(boundNanos) + " ms", null);
	}

	/** Waits for an add's answer: whether it made the item dirty. */
	private boolean answer(BatchRequest.Add request, long boundNanos) {
		if (!request.await(boundNanos)) {
			throw unanswered(request.encoded, boundNanos);
		}
		if (request.failure != null) {
			throw request.failure;
		}
		return request.made;
	}

	/**
	 * How long a done keeps being asked after its caller asked it: two lease durations,
	 * so that a done that got no answer while its lease could still be live is answered.
	 */
	public Duration askingTime() {
		return this.leaseDuration.multipliedBy(2);
	}

	/**
	 * Ends a lease, in the next batch. Through an outage the done is asked again, with
	 * the shard's backoff, until Redis answers or {@code askUntilNanos} passes, whether
	 * or not the caller still waits. The caller waits uninterruptibly (the interrupt is
	 * kept) for {@link RedisLink#requestBoundNanos()} at most, and an interrupted caller
	 * stops waiting at the first failed attempt.
	 * @param encoded the lease's item, as Redis knows it
	 * @param token the lease's token
	 * @param taker the thread that took the lease
	 * @param lateOutcome told once, on a helper thread, of the final outcome of a done
	 * for which this returns {@code null}: whether Redis accepted the token, or
	 * {@code null} if that will never be known
	 * @return whether Redis accepted the lease's token, or {@code null} if no answer came
	 * in time
	 */
	public @Nullable Boolean done(String encoded, long token, Thread taker, long askUntilNanos,
			Consumer<@Nullable Boolean> lateOutcome) {
		Executor helpers = this.link.helpers();
		Consumer<@Nullable Boolean> dispatched = (outcome) -> helpers.execute(() -> lateOutcome.accept(outcome));
		BatchRequest.Done request = new BatchRequest.Done(this.shards.of(encoded), encoded, token, taker, askUntilNanos,
				Thread.currentThread(), dispatched);
		this.state.queueDone(request);
		if (request.await(this.link.requestBoundNanos()) && request.accepted == null) {
			// Its outcome will never be known, and the caller is told so now.
			dispatched.accept(null);
		}
		if (request.unreplicated != null) {
			throw request.unreplicated;
		}
		return request.accepted;
	}

	/**
	 * Ends a lease in the next batch without waiting for Redis's answer (group commit):
	 * the request goes to Redis after every request this instance asked before it for the
	 * same shard, and before every later one, and is asked again through an outage as
	 * {@link #done} is.
	 * @param encoded the lease's item, as Redis knows it
	 * @param token the lease's token
	 * @param taker the thread that took the lease
	 * @param outcome told once, on the sender thread, of the outcome: whether Redis
	 * accepted the token, or {@code null} if that will never be known; it must not block
	 */
	public void doneLater(String encoded, long token, Thread taker, long askUntilNanos,
			Consumer<@Nullable Boolean> outcome) {
		BatchRequest.Done[] self = new BatchRequest.Done[1];
		BatchRequest.Done request = new BatchRequest.Done(this.shards.of(encoded), encoded, token, taker, askUntilNanos,
				Thread.currentThread(), (accepted) -> {
					this.pendingDones.remove(self[0]);
					outcome.accept(accepted);
				});
		self[0] = request;
		request.leave();
		this.pendingDones.add(request);
		this.lastDeferred.set(request);
		this.state.queueDone(request);
	}

	/**
	 * Waits until every done asked without waiting before this call has its outcome, at
	 * most a command timeout (through an outage the caller's own request fails next): a
	 * request that bypasses the batches then sees every done that returned before it
	 * applied, whichever thread called it.
	 */
	public void awaitDonesAsked() {
		if (!this.pendingDones.isEmpty()) {
			awaitPendingDones(this.link.replyTimeout().toNanos());
		}
	}

	/**
	 * Waits until every done asked without waiting has its outcome, at most the given
	 * time: those still unanswered then keep being asked.
	 */
	public void awaitPendingDones(long timeoutNanos) {
		long deadline = System.nanoTime() + timeoutNanos;
		for (BatchRequest.Done done : List.copyOf(this.pendingDones)) {
			done.await(Math.max(0, deadline - System.nanoTime()));
		}
	}

	/**
	 * Releases the waiting takers (their {@link LeaseTakes#take} returns {@code null}),
	 * gives back the leases taken ahead and stops granting leases; adds and dones already
	 * asked for are still sent.
	 */
	public void shutDown() {
		List<Grant> grants = this.state.shutDown();
		this.returns.giveBackUntaken(grants);
		this.hints.forEach(WakeHints::close);
	}

	/**
	 * How long the sender has been busy reading replies or sending a batch, if longer
	 * than {@code thresholdNanos}: it never waits for Redis but within a bound, so that
	 * means it is stuck.
	 * @return the time it has been busy, or empty if it is not stalled
	 */
	public Optional<Duration> stalledFor(long thresholdNanos) {
		return this.sender.stalledFor(thresholdNanos);
	}

	/** The sender thread's stack, for the stall report; empty when none runs. */
	public StackTraceElement[] senderStack() {
		return this.sender.stack();
	}

}
