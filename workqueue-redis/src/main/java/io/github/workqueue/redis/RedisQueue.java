package io.github.workqueue.redis;

import java.time.Duration;
import java.time.Instant;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletionStage;

import org.jspecify.annotations.Nullable;

import io.github.workqueue.core.AddOptions;
import io.github.workqueue.core.DeadLetter;
import io.github.workqueue.core.DeadLetters;
import io.github.workqueue.core.DeferredDone;
import io.github.workqueue.core.FailedAttempts;
import io.github.workqueue.core.LeasedQueue;
import io.github.workqueue.core.LeasingAhead;
import io.github.workqueue.core.RateLimitingQueue;
import io.github.workqueue.core.trace.TracedQueue;

/**
 * A rate-limiting queue whose state lives in Redis and is shared by every instance that
 * builds a queue of the same prefix and name: client-go's guarantees hold across
 * instances (dedup while queued, one holder per item, an add while in flight runs again
 * after {@code done}, FIFO, delays with earliest-ready-wins and add-supersedes, shared
 * failure counts and token buckets). A queue built with
 * {@link RedisQueueBuilder#shards(int) several shards} keeps FIFO within each shard, not
 * across them; every other guarantee holds as with one.
 *
 * <p>
 * <b>Leases.</b> {@link #get()} grants the caller's instance a lease on the item, which
 * the instance renews while the item is in flight. If the instance dies or loses Redis
 * for longer than the lease, the item returns to the queue (at-least-once delivery) and
 * counts as a redelivery; the late {@link #done} of the old holder is rejected and
 * logged. An item whose leases expire too many times in a row is parked and reported
 * instead of retried forever.
 *
 * <p>
 * <b>Leasing ahead.</b> With {@link RedisQueueBuilder#prefetch(int) prefetch} above zero
 * (the default is {@value RedisQueueBuilder#DEFAULT_PREFETCH}), an instance leases items
 * beyond the threads waiting in {@code get}, in the same calls, and hands them out in the
 * order taken. How many it keeps is adaptive, never above {@code prefetch}: none while
 * its workers take longer per item than a round trip to Redis, and more, doubling, while
 * they come back for items sooner than that and find none. A buffered item is in flight
 * as far as the queue is concerned: its lease is renewed while it waits, an add meanwhile
 * makes it run again after {@code done}, and {@link #len()} does not count it. Order
 * across instances is then exact up to the buffers: an item added later with a higher
 * priority (or a fairness key's next turn) waits behind at most {@code prefetch} buffered
 * items per instance. The buffer is given back at once, in order and not counted as
 * redeliveries, at shutdown, by {@link #giveBackLeasedAhead()} (the worker container's
 * pause) and once an item waited a whole lease duration untaken; an instance that dies
 * loses its buffered items' leases like its workers', and they are delivered again when
 * the leases expire.
 *
 * <p>
 * <b>Instance shutdown.</b> {@link #shutDown()} and {@link #shutDownWithDrain()} stop
 * this instance only: it takes and accepts no more items. Items its workers are
 * processing keep their leases until {@code done}; items leased ahead are given back at
 * once; when a drain ends (its items done, its timeout passed, or {@code shutDown()}
 * called meanwhile) the leases still held are given back at once, and those items are
 * queued again for the other instances, not counted as redelivered or lost. Queued and
 * waiting items stay in Redis; {@link #discardedAtShutdown()} is always empty.
 *
 * <p>
 * <b>Failed attempts.</b> The count of an item's failed attempts since its last success
 * ({@link FailedAttempts}), which a worker container's {@code max-retries} reads, is kept
 * with the item in Redis: it is queue-wide, like the rate limiter's failure count.
 *
 * <p>
 * <b>Replicated acknowledgement.</b> By default a write returns once the Redis master
 * applied it, and a failover to a replica can lose the writes not yet replicated: adds
 * (the item is not processed), dones (the item runs once more). With
 * {@link RedisQueueBuilder#replicasAck(int) replicas-ack} N, an add ({@code add},
 * {@code addAfter}, {@code addRateLimited}, an add with options) and a {@code done}
 * return only after N replicas confirmed the write (Redis {@code WAIT}, one per batch of
 * writes); when fewer confirm within the timeout, the caller gets an
 * {@link UnreplicatedWriteException} (the master applied the write; whether it survives a
 * failover cannot be told), which is logged and counted ({@link #unreplicatedWrites()}).
 * {@link #doneWithoutWaiting(Object)} waits for nobody: a shortfall is logged and
 * counted. Lease grants, renewals and give-backs never wait: a lost grant or renewal only
 * means a redelivery. {@code WAIT} confirms that replicas received the write, not that
 * they wrote it to disk.
 *
 * <p>
 * <b>Time.</b> Ready times, lease deadlines and token buckets use Redis's clock
 * ({@code TIME}), never an instance's. {@link #len()} and {@link #waitingLen()} are
 * queue-wide.
 *
 * <p>
 * Thread-safe: every operation takes effect atomically on Redis, in one script, between
 * its call and its return, but {@link #doneWithoutWaiting(Object)}, which returns once
 * its request is on its way (group commit, see there); operations that this instance's
 * threads call at the same time may share one script and one round trip. This instance's
 * own bookkeeping (its leases) is a concurrent map.
 *
 * @param <T> the type of the items
 */
public interface RedisQueue<T> extends RateLimitingQueue<T>, FailedAttempts<T>, LeasedQueue<T>, DeferredDone<T>,
		LeasingAhead, DeadLetters<T>, TracedQueue<T> {

	/**
	 * Starts building a queue.
	 * @param connection where Redis is
	 * @param name the queue's name, shared by the instances that share the queue
	 * @return the builder
	 */
	static RedisQueueBuilder builder(RedisQueueConnection connection, String name) {
		return new RedisQueueBuilder(connection, name);
	}

	/**
	 * {@inheritDoc}
	 * <p>
	 * The adds are queued for the batches all at once, so that one round trip per shard
	 * carries up to 256 of them, and this returns once Redis answered every one. If one
	 * failed or got no answer in time, its exception is thrown (an
	 * {@link UnconfirmedAddException} when Redis may have applied it) after the adds
	 * before it were answered; the adds after it are sent all the same, and whether they
	 * were applied is not known: adding the same items again is safe, as an item already
	 * queued is not queued twice.
	 */
	@Override
	void addAll(Collection<? extends T> items);

	/**
	 * {@inheritDoc}
	 * <p>
	 * Without a delay or rate-limiting the adds go together, as
	 * {@link #addAll(Collection)}'s do; otherwise each is a script of its own, as
	 * {@link #add(Object, AddOptions)} is.
	 */
	@Override
	void addAll(Collection<? extends T> items, AddOptions options);

	/**
	 * {@inheritDoc}
	 * <p>
	 * Without a delay or rate-limiting the add goes in the next batch, as a plain add
	 * does; otherwise it is one script of its own, and counts a retry, as
	 * {@code addAfter} does.
	 */
	@Override
	void add(T item, AddOptions options);

	/**
	 * Adds an item as {@link #add(Object)} does, without waiting for Redis's answer: the
	 * stage completes, off the caller's thread, with the acknowledgement {@code add}
	 * gives. It completes normally once Redis applied the add (or it joined an add
	 * already queued, or the item is in flight and runs again after its {@code done});
	 * exceptionally with the failure {@code add} would throw: a refusal (an error reply,
	 * {@link UnreplicatedWriteException}) or an {@link UnconfirmedAddException} when no
	 * answer came within the request bound and the add may have been applied. An add
	 * after this instance began to shut down is dropped and counted, as {@code add}'s is,
	 * and its stage completes normally. Adds of one thread reach each shard in the order
	 * made, as {@code add}'s do.
	 * <p>
	 * What is on its way is bounded: at most {@link RedisQueueBuilder#maxAsyncAdds(int)
	 * maxAsyncAdds} unanswered adds per shard, beyond which this call waits for one to be
	 * answered (back-pressure); a shard that does not answer (a failover) holds only the
	 * adds of its own items. The stage's dependent actions run on the queue's helper
	 * threads unless they are added after it completed; they must not wait long, since
	 * the next adds' stages complete on the same threads.
	 * @param item the item
	 * @return the add's acknowledgement
	 */
	CompletionStage<Void> addAsync(T item);

	/**
	 * Adds an item with options as {@link #add(Object, AddOptions)} does, without waiting
	 * for Redis's answer, as {@link #addAsync(Object)} does. With a delay or
	 * rate-limiting the add's script runs on a helper thread; at most 16 of those per
	 * instance are unanswered at once, beyond which this call waits.
	 * @param item the item
	 * @param options the add's priority, delay or rate-limiting
	 * @return the add's acknowledgement
	 */
	CompletionStage<Void> addAsync(T item, AddOptions options);

	/**
	 * {@link #addAfter(Object, Duration)} without waiting for Redis's answer, as
	 * {@link #addAsync(Object, AddOptions)} with a delay does.
	 * @param item the item
	 * @param delay how long from now the item becomes ready
	 * @return the add's acknowledgement
	 */
	CompletionStage<Void> addAfterAsync(T item, Duration delay);

	/**
	 * {@link #addRateLimited(Object)} without waiting for Redis's answer, as
	 * {@link #addAsync(Object, AddOptions)} with rate-limiting does.
	 * @param item the item
	 * @return the delay the shared limiter gave, once Redis answered
	 */
	CompletionStage<Duration> addRateLimitedAsync(T item);

	/**
	 * {@inheritDoc}
	 * <p>
	 * Kept queue-wide in Redis, at most 10,000 (the oldest dropped past that, with a
	 * warning).
	 */
	@Override
	void deadLetter(T item, String reason, int attempts, @Nullable Throwable lastError);

	/**
	 * {@inheritDoc}
	 * <p>
	 * The items given up (newest first, at most 1,000 listed) and then the parked ones,
	 * every instance's.
	 */
	@Override
	List<DeadLetter> deadLetters();

	/**
	 * {@inheritDoc}
	 * <p>
	 * Read from Redis: every instance's, given up and parked.
	 */
	@Override
	long deadLetterCount();

	/**
	 * {@inheritDoc}
	 * <p>
	 * Those this instance's dead letters pushed out of the queue-wide store.
	 */
	@Override
	long deadLettersDropped();

	/**
	 * Returns the calling processing's lease on an item: the lease of the item that the
	 * calling thread took and has not yet marked done. A thread that took none (the item
	 * was handed to it) sees this instance's lease on the item, the newest if it holds
	 * several. The lease is a live view: ask it {@link Lease#isLive()} before a write
	 * that must not race another holder, and pass its {@link Lease#token()} to a store
	 * that fences writes.
	 * @param item the item
	 * @return the lease, or empty if this instance does not hold the item
	 */
	@Override
	Optional<Lease> lease(T item);

	/**
	 * {@inheritDoc}
	 * <p>
	 * <b>Which lease.</b> A processing is identified by its lease, not by its item:
	 * {@code done(item)} ends the lease that the calling thread took on the item (its
	 * oldest, if it took the item more than once without done). A thread that took none,
	 * because the item was handed to it, ends this instance's lease on the item, the
	 * oldest if it holds several (a lease expired while its processing still ran, and the
	 * item came back to this instance). Code that hands items to other threads should
	 * take {@link #lease(Object)} on the taking thread and call {@link #done(Lease)}; its
	 * lease is renewed only while the taking thread lives. A done whose lease had expired
	 * is rejected by Redis and logged; {@link #done(Lease)} returns the outcome.
	 */
	@Override
	void done(T item);

	/**
	 * {@inheritDoc}
	 * <p>
	 * <b>Group commit.</b> The done goes in the next batch for the item's shard, with the
	 * other workers' dones and the next lease asks, and returns without waiting for
	 * Redis's answer. An add that the calling thread makes later for the same shard goes
	 * in a later batch, after it; the thread's next {@code get} may share its batch (the
	 * dones of a batch run before its lease asks); a read or add that goes to Redis on
	 * its own ({@code len}, {@code stats}, {@code addAfter}...), on any thread of this
	 * instance, waits first for the dones that returned before it. Its outcome comes
	 * later: a rejection (the lease had expired) is logged at WARN and counted in
	 * {@link RedisQueueStats#rejectedDones()}, the lease's {@link Lease#outcome()}
	 * completes, and through an outage the done is asked again as {@link #done(Lease)}'s
	 * is. {@link #shutDownWithDrain()} waits for the dones on their way within its
	 * timeout, and {@link RedisQueueConnection#close()} before it closes (at most twice
	 * the connect timeout and twice the command timeout). Another instance may see the
	 * item in flight until the done lands.
	 */
	@Override
	void doneWithoutWaiting(T item);

	/**
	 * Ends a lease, from any thread, and says what became of it. A repeat of a done of
	 * the same lease (a retry after a lost reply) gets the same answer as the first, and
	 * a rejected done is counted once however many of its attempts reach Redis: Redis
	 * remembers each ended and each rejected lease for two lease durations and two
	 * command timeouts at least. Waits for an answer at most twice the client's connect
	 * timeout and twice its command timeout; without one the done returns
	 * {@link DoneResult#NO_ANSWER}, is asked again until Redis answers, and its final
	 * outcome is reported once ({@link Lease#outcome()}, the log,
	 * {@link RedisQueueBuilder#lateDoneListener}).
	 * @param lease a lease this queue granted, from {@link #lease(Object)}
	 * @return whether the lease was accepted or rejected, or that no answer came in time
	 * @throws IllegalArgumentException if this queue did not grant the lease
	 */
	DoneResult done(Lease lease);

	/**
	 * Reads the queue-wide figures.
	 * @return the figures
	 * @throws io.lettuce.core.RedisException when Redis cannot be reached
	 */
	RedisQueueStats stats();

	/**
	 * Returns the parked items, as stored, with the reason each was parked. An
	 * {@code add} of a parked item takes it out of the parked set and queues it again.
	 * @return encoded item to reason
	 */
	Map<String, String> parked();

	/**
	 * Takes a parked item out of the parked set and queues it again.
	 * @param encoded the item as stored, a key of {@link #parked()}
	 * @return whether the item was parked
	 */
	boolean requeueParked(String encoded);

	/**
	 * Takes a parked item out of the parked set for good.
	 * @param encoded the item as stored, a key of {@link #parked()}
	 * @return whether the item was parked
	 */
	boolean dropParked(String encoded);

	/**
	 * Removes an item named as stored, as {@link #inFlight()} and {@link #parked()} list
	 * it: what {@link #remove(Object)} does for the item it encodes (for an operator who
	 * only has the stored form).
	 * @param encoded the item as stored
	 * @return whether the item was queued, waiting or due to be queued again at its
	 * {@code done}
	 */
	boolean removeEncoded(String encoded);

	/**
	 * Lists the items under a lease on any instance, read in one atomic step.
	 * @return the items with their holders and lease times
	 */
	List<InFlightItem> inFlight();

	/**
	 * Whether this instance's requests of the queue are stuck: the one thread that sends
	 * them to Redis has been busy, while no connect was under way, for longer than twice
	 * the command timeout and a second (at least 5 s). It never waits for Redis without a
	 * bound, so this is a defect, not an outage: it is logged once at ERROR with the
	 * thread's stack, counted ({@code workqueue_stalls_total}), and the starter's health
	 * check is DOWN while it lasts. An outage shows instead as failed adds and dones and
	 * an unreachable Redis.
	 * @return how long the thread has been stuck, or empty if it is not
	 */
	Optional<Duration> stalledFor();

	/**
	 * Pauses the queue on every instance: from the moment this returns, Redis grants no
	 * instance a lease on any item until {@link #resumeEverywhere()}, whatever the
	 * instances' own state (a worker container's {@code pause()} stops this instance
	 * only). Adds, dones and the return of expired leases go on; items being processed
	 * finish; this instance's items leased ahead are given back, while another instance
	 * may still hand out the at most {@code prefetch} items it leased ahead before. The
	 * state lives in Redis: it outlives every instance, and an instance started later
	 * obeys it. Logged at INFO.
	 * @param by who pauses it (a person, a job), shown with the pause
	 * @return false if it was already paused (the first pause's who and since stay)
	 */
	boolean pauseEverywhere(String by);

	/**
	 * Ends a {@link #pauseEverywhere(String) queue-wide pause}: instances are granted
	 * leases again, the first waiting one at once, the others within a second.
	 * @return false if it was not paused
	 */
	boolean resumeEverywhere();

	/**
	 * Reads the queue-wide pause from Redis.
	 * @return who paused the queue on every instance and since when, or empty if it is
	 * not paused so
	 */
	Optional<QueueWidePause> pausedEverywhere();

	/**
	 * Lists the instances serving the queue, from the heartbeat each writes every second
	 * while it runs: an instance shut down is gone; one that died or lost Redis shows a
	 * {@link QueueInstance#lastSeen()} that ages, until it is forgotten after an hour.
	 * @return the instances, by holder name
	 */
	List<QueueInstance> instances();

	/**
	 * Since when this instance finds Redis unreachable: set at the first failed call of
	 * an outage (the one logged at WARN), cleared at the first call answered after it
	 * (logged at INFO). Reads no Redis, so that a health check or an operations view can
	 * answer at once during an outage. Empty while Redis answers, and before a call
	 * failed.
	 * @return when the outage under way began, or empty
	 */
	Optional<Instant> unreachableSince();

	/**
	 * Counts this instance's writes (adds, delayed and rate-limited adds, accepted dones)
	 * that the master applied but fewer replicas than
	 * {@link RedisQueueBuilder#replicasAck(int) replicas-ack} confirmed in time; each
	 * one's caller got an {@link UnreplicatedWriteException}, but those of
	 * {@code doneWithoutWaiting}, which only this count and the log report. Also counted
	 * as {@code workqueue_unreplicated_writes_total}.
	 * @return the writes so far; 0 without replicas-ack
	 */
	long unreplicatedWrites();

	/**
	 * Returns how this instance appears as the holder of its leases, as in
	 * {@link InFlightItem#holder()}.
	 * @return this instance's holder name
	 */
	String holder();

	/**
	 * Returns how many shards the queue is spread over.
	 * @return from 1 to 1024
	 */
	int shards();

}
