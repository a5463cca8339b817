package io.github.workqueue.redis.internal;

import java.lang.System.Logger.Level;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.Executor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import java.util.function.Consumer;
import java.util.function.Supplier;

import io.github.workqueue.redis.RedisQueue;
import io.github.workqueue.redis.UnconfirmedAddException;
import io.lettuce.core.RedisCommandExecutionException;
import io.lettuce.core.RedisException;
import io.lettuce.core.ScriptOutputType;
import org.jspecify.annotations.Nullable;

/**
 * Sends to Redis together what one instance's threads ask of one queue: adds, dones, and
 * leases for the threads waiting in {@code get}, in one run of {@code batch.lua} per
 * shard (adds first, then dones, then leases, so that an item added here can go to a
 * getter here in the same round trip). One thread, the sender, makes the batches and
 * sends them without waiting for the replies: a shard has at most one part on its way (a
 * {@link Flight}), and while it is, the next part for that shard gathers; the other
 * shards' parts go as soon as their previous one is answered. So a round trip carries
 * more the more threads ask, Redis runs one script where it ran one per call, and a shard
 * that does not answer (a failover, a partition) holds up the requests for its own keys
 * only.
 *
 * <p>
 * Leases are asked of one shard at a time, the shards in turn, so that every shard is
 * served; a shard that has fewer than asked for passes the turn on at once, and only when
 * every shard in a row had too few do the takers wait (for a hint from any shard, or the
 * soonest waiting item or lease deadline of all). An ask that has gone unanswered for
 * {@link #ASK_PATIENCE_NANOS} lets the next free shard be asked too.
 *
 * <p>
 * A thread waiting in {@link #take} holds a {@link Taker}. A lease is granted for a taker
 * that waits when the batch is made, or ahead of the takers (prefetch): a batch that asks
 * for leases asks for up to {@code prefetch} more than the takers waiting, less those
 * buffered and those asked for already; a batch asks for them alone once the buffer is
 * half empty. A grant goes to the first taker still waiting when the reply comes (the
 * others timed out, were interrupted, were served by another shard or released by
 * shutdown), else to the buffer while it holds fewer than {@code prefetch}, and is given
 * back at once otherwise (its item returns to the head of the queue, not counted as a
 * redelivery). A taker takes the buffer's oldest grant without waiting; takers wait only
 * while the buffer is empty. Buffered leases are renewed with the held ones
 * ({@link #buffered()}); one whose renewal failed for half a lease, or that Redis says
 * expired, is given back (for what it is worth) rather than handed out. The buffer is
 * given back, in order, at shutdown and by {@link #giveBackLeasedAhead()}, and a lease
 * that waited a whole lease duration untaken at the renewer's next beat. Leases are asked
 * for ahead only with the takers' or after a take, so an instance that only adds leases
 * nothing. While takers wait and Redis has nothing for them, one {@code BLPOP} per
 * instance and shard ({@link WakeHints}) waits for a hint, and the batch runs again at
 * the latest when the next waiting item or lease deadline is due, or after
 * {@code longestBlock}.
 *
 * <p>
 * Through an outage, adds fail at once (the caller sees the exception, as with any Redis
 * command); dones are asked again with backoff, per shard, until Redis answers or their
 * last attempt is due, after their caller stopped waiting too (a late outcome is handed
 * to the queue); takers keep waiting until their timeout. Every caller's wait is bounded
 * ({@link RedisLink#requestBound()}): an add that got no answer by then throws, a done
 * reports no answer yet.
 *
 * <p>
 * Concurrency: the request queues, the takers, the flights and every field without a note
 * of its own are guarded by this object's monitor, which is never held across I/O or a
 * wait: the sender parks outside it, and whoever gives it something to do unparks it. A
 * Lettuce thread hands a landed flight over without the monitor (a concurrent queue and
 * an unpark, {@link #landed}); a hint takes it for a moment ({@link #hintEnded}); the
 * replies are read, and any further command sent, on the sender or a helper thread. Each
 * request's outcome is guarded by its own monitor and written once. The sender starts
 * when there is something to send and ends when the queue is shutting down and no add,
 * done or flight is left; a later add or done starts it again.
 */
final class Batcher {

	private static final System.Logger logger = System.getLogger(RedisQueue.class.getName());

	/**
	 * The most adds, dones or leases one shard's part carries, to keep one script short.
	 */
	static final int MOST_PER_BATCH = 256;

	private static final long SHORTEST_POLL_NANOS = TimeUnit.MILLISECONDS.toNanos(1);

	private static final long LINGER_NANOS = TimeUnit.MICROSECONDS.toNanos(200);

	/**
	 * How long the takers' lease ask may go unanswered before another shard is asked for
	 * them too (a grant that then finds no taker is given back).
	 */
	static final long ASK_PATIENCE_NANOS = TimeUnit.MILLISECONDS.toNanos(250);

	private final String name;

	private final RedisLink link;

	private final Shards shards;

	private final LeaseReturns returns;

	private final Supplier<String> now;

	/**
	 * holder, lease, most expiries, ended lease memory: ARGV 2 to 5 of every batch. The
	 * memory is set by the sender before a batch, when the command timeout it derives
	 * from changed ({@link #endedMemory}). Read and written by the sender only.
	 */
	private final String[] fixedArgs;

	/** The command timeout the ended lease memory in {@code fixedArgs} was made for. */
	private @Nullable Duration endedMemoryFor;

	private final Duration leaseDuration;

	private final long longestBlockNanos;

	private final OutageLog outage;

	/** One listener per shard. */
	private final List<WakeHints> hints;

	/** Per shard, the adds and dones waiting for its next part, and its backoff. */
	private final PendingRequests pending;

	private final ArrayDeque<Taker> takers = new ArrayDeque<>();

	/** The leases taken ahead of the takers (prefetch). */
	private final LeaseAheadBuffer buffer;

	/** Dones asked without waiting ({@link #doneLater}) whose outcome has not come. */
	private final Set<BatchRequest.Done> pendingDones = ConcurrentHashMap.newKeySet();

	/**
	 * Per thread, its last done asked without waiting: an add it makes later for the same
	 * shard goes in a later part (a part runs its adds before its dones).
	 */
	private final ThreadLocal<BatchRequest.Done> lastDeferred = new ThreadLocal<>();

	/** Per shard, its part on its way to Redis, or {@code null}. */
	private final @Nullable Flight[] flying;

	/** Flights whose reply came (or failed), for the sender to read. */
	private final ConcurrentLinkedQueue<Flight> landed = new ConcurrentLinkedQueue<>();

	/** The flight that carries the takers' lease ask, until it is read. */
	private @Nullable Flight asking;

	/**
	 * When the last taker came ({@link System#nanoTime()}): a short ask sent before it
	 * did not ask for it, so the takers do not wait for a hint then.
	 */
	private long lastTakerNanos;

	/** A hint was popped since the last batch was made. */
	private boolean hinted;

	/** When the takers' next batch is due, without a hint ({@link System#nanoTime()}). */
	private long pollAt;

	private boolean running;

	private boolean shuttingDown;

	/** The shard the next batch asks for leases first. */
	private int turn;

	/** Shards in a row that had fewer leases than asked for, and their soonest event. */
	private int shortShards;

	private long soonestEventMicros = -1;

	/**
	 * Threads whose done the last batch answered and that took their lease themselves:
	 * most ask for something again at once (their next item, mostly), so the next batch
	 * waits for them, until each has asked or {@link #LINGER_NANOS} passed, to carry
	 * their requests together.
	 */
	private final Set<Thread> awaited = new HashSet<>();

	private long lingerUntil;

	/** The sender thread while it runs, for the stall watchdog's report. */
	private volatile @Nullable Thread sender;

	/**
	 * When the sender went off to read replies or send a batch, or 0 while it waits for
	 * work: a sender busy for long is stalled ({@link #stalledFor}). Written by the
	 * sender only.
	 */
	private volatile long busySince;

	/** How many replicas confirm a batch of adds and dones before their callers hear. */
	private final ReplicaAck ack;

	/**
	 * @param fixedArgs holder, lease in microseconds, most expiries
	 * @param ack how many replicas confirm the writes of a batch
	 */
	Batcher(String name, RedisLink link, Shards shards, Supplier<String> now, String[] fixedArgs,
			Duration leaseDuration, long longestBlockNanos, int prefetch, OutageLog outage, ReplicaAck ack) {
		this.name = name;
		this.ack = ack;
		this.link = link;
		this.shards = shards;
		this.returns = new LeaseReturns(link, shards, now);
		this.now = now;
		this.fixedArgs = Arrays.copyOf(fixedArgs, 4);
		this.leaseDuration = leaseDuration;
		this.longestBlockNanos = longestBlockNanos;
		this.outage = outage;
		int count = shards.count();
		List<WakeHints> listeners = new ArrayList<>(count);
		for (int shard = 0; shard < count; shard++) {
			listeners.add(link.wakeHints(shards.keys(shard).wake(), Duration.ofNanos(longestBlockNanos)));
		}
		this.hints = List.copyOf(listeners);
		this.flying = new Flight[count];
		long start = System.nanoTime();
		this.pending = new PendingRequests(count, start);
		this.buffer = new LeaseAheadBuffer(prefetch, leaseDuration, count, longestBlockNanos, start);
	}

	/**
	 * A lease granted by a batch, with when that batch was sent (the lease's liveness
	 * counts from then).
	 */
	record Grant(int shard, String encoded, long token, long deadlineMicros, long queuedMicros, int priority,
			long sentNanos) {
	}

	/**
	 * Adds an item, in the next batch.
	 * @return whether the add made the item dirty (rather than joining an earlier add)
	 * @throws RedisException if the batch failed or no answer came in time
	 */
	boolean add(String encoded) {
		return add(request(encoded, 0, ""));
	}

	/**
	 * Adds an item, in the next batch.
	 * @param request the add, made with {@link #request}
	 * @return whether the add made the item dirty (rather than joining an earlier add)
	 * @throws RedisException if the batch failed or no answer came in time
	 */
	boolean add(BatchRequest.Add request) {
		BatchRequest.Done deferred = this.lastDeferred.get();
		synchronized (this) {
			this.pending.add(request, deferred);
			arrived();
			wakeSender();
		}
		return answer(request, this.link.requestBound().toNanos());
	}

	/**
	 * Adds items, in order, in the next batches: all are queued at once, so that a part
	 * carries up to {@link #MOST_PER_BATCH} of them, and the caller waits for each answer
	 * in turn, at most {@link RedisLink#requestBound()} after the one before it came.
	 * @param requests the adds, made with {@link #request}
	 * @param madeDirty run once for each add answered as having made its item dirty
	 * (rather than joining an earlier add), before any later answer is waited for
	 * @throws RedisException the first add's failure, if one failed or no answer came in
	 * time; the adds after it are still sent, and may or may not be applied
	 */
	void addAll(List<BatchRequest.Add> requests, Runnable madeDirty) {
		BatchRequest.Done deferred = this.lastDeferred.get();
		synchronized (this) {
			for (BatchRequest.Add request : requests) {
				this.pending.add(request, deferred);
			}
			arrived();
			wakeSender();
		}
		long bound = this.link.requestBound().toNanos();
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
	 */
	BatchRequest.Add request(String encoded, int priority, String keys) {
		int shard = this.shards.of(encoded);
		return (priority == 0 && keys.isEmpty()) ? new BatchRequest.Add(shard, encoded)
				: new BatchRequest.Add(shard, encoded, Integer.toString(priority), keys);
	}

	/** Waits for an add's answer: whether it made the item dirty. */
	private boolean answer(BatchRequest.Add request, long boundNanos) {
		if (!request.await(boundNanos)) {
			throw new UnconfirmedAddException(this.name, request.encoded,
					"no answer from Redis within " + TimeUnit.NANOSECONDS.toMillis(boundNanos) + " ms", null);
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
	Duration askingTime() {
		return this.leaseDuration.multipliedBy(2);
	}

	/**
	 * How long Redis remembers a lease that a done ended, or that a done was rejected
	 * for: the {@link #askingTime()} and two command timeouts, so that a done's last
	 * attempt, which Redis runs within a command timeout of its sending if it answers it,
	 * still finds the first attempt's record.
	 */
	private Duration endedMemory(Duration replyTimeout) {
		return askingTime().plus(replyTimeout.multipliedBy(2));
	}

	/**
	 * Ends a lease, in the next batch. Through an outage the done is asked again, with
	 * the shard's backoff, until Redis answers or {@code askUntilNanos} passes, whether
	 * or not the caller still waits. The caller waits uninterruptibly (the interrupt is
	 * kept) for {@link RedisLink#requestBound()} at most, and an interrupted caller stops
	 * waiting at the first failed attempt.
	 * @param lateOutcome told once, on a helper thread, of the final outcome of a done
	 * for which this returns {@code null}: whether Redis accepted the token, or
	 * {@code null} if that will never be known
	 * @return whether Redis accepted the lease's token, or {@code null} if no answer came
	 * in time
	 */
	@Nullable Boolean done(HeldLease lease, long askUntilNanos, Consumer<@Nullable Boolean> lateOutcome) {
		Executor helpers = this.link.helpers();
		Consumer<@Nullable Boolean> dispatched = (outcome) -> helpers.execute(() -> lateOutcome.accept(outcome));
		BatchRequest.Done request = new BatchRequest.Done(this.shards.of(lease.encoded), lease, askUntilNanos,
				Thread.currentThread(), dispatched);
		synchronized (this) {
			this.pending.done(request);
			arrived();
			wakeSender();
		}
		if (request.await(this.link.requestBound().toNanos()) && request.accepted == null) {
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
	 * @param outcome told once, on the sender thread, of the outcome: whether Redis
	 * accepted the token, or {@code null} if that will never be known; it must not block
	 */
	void doneLater(HeldLease lease, long askUntilNanos, Consumer<@Nullable Boolean> outcome) {
		BatchRequest.Done[] self = new BatchRequest.Done[1];
		BatchRequest.Done request = new BatchRequest.Done(this.shards.of(lease.encoded), lease, askUntilNanos,
				Thread.currentThread(), (accepted) -> {
					this.pendingDones.remove(self[0]);
					outcome.accept(accepted);
				});
		self[0] = request;
		request.leave();
		this.pendingDones.add(request);
		this.lastDeferred.set(request);
		synchronized (this) {
			this.pending.done(request);
			arrived();
			wakeSender();
		}
	}

	/**
	 * Waits until every done asked without waiting before this call has its outcome, at
	 * most a command timeout (through an outage the caller's own request fails next): a
	 * request that bypasses the batches then sees every done that returned before it
	 * applied, whichever thread called it.
	 */
	void awaitDonesAsked() {
		if (!this.pendingDones.isEmpty()) {
			awaitPendingDones(this.link.replyTimeout().toNanos());
		}
	}

	/**
	 * Waits until every done asked without waiting has its outcome, at most the given
	 * time: those still unanswered then keep being asked.
	 */
	void awaitPendingDones(long timeoutNanos) {
		long deadline = System.nanoTime() + timeoutNanos;
		for (BatchRequest.Done done : List.copyOf(this.pendingDones)) {
			done.await(Math.max(0, deadline - System.nanoTime()));
		}
	}

	/**
	 * Waits for a lease granted to the calling thread.
	 * @return the grant, or {@code null} if none came within the timeout (but not before
	 * one batch asked Redis for it, or {@link RedisLink#requestBound()} passed) or the
	 * queue is shutting down
	 * @throws InterruptedException if interrupted while waiting: an interrupted take
	 * takes nothing, and a grant that came as the interrupt did goes to another waiting
	 * thread, to the buffer, or back to the queue's head (not counted as a redelivery),
	 * as if it had never come (a worker container's pause must not start an item)
	 */
	@Nullable Grant take(long timeoutNanos) throws InterruptedException {
		Taker taker = new Taker();
		List<BufferedGrant> stale = new ArrayList<>(0);
		Grant ready;
		synchronized (this) {
			if (this.shuttingDown) {
				return null;
			}
			arrived();
			long now = System.nanoTime();
			ready = this.buffer.take(now, stale);
			if (ready == null) {
				this.takers.add(taker);
				this.pollAt = now;
				this.lastTakerNanos = now;
				wakeSender();
			}
			else if (this.buffer.tookOne(now, this.shuttingDown)) {
				wakeSender();
			}
		}
		if (!stale.isEmpty()) {
			giveBack(stale.stream().map((buffered) -> buffered.grant).toList());
		}
		if (ready != null) {
			return ready;
		}
		long triedBound = Math.max(timeoutNanos, this.link.requestBound().toNanos());
		try {
			taker.await(timeoutNanos, triedBound);
		}
		catch (InterruptedException ex) {
			taker.cancel();
			handBack(taker.grant);
			throw ex;
		}
		taker.cancel();
		if (Thread.interrupted()) {
			// Interrupted as the grant came, which woke this thread first.
			handBack(taker.grant);
			throw new InterruptedException();
		}
		return taker.grant;
	}

	/** A grant its taker did not take goes to another taker, the buffer, or Redis. */
	private void handBack(@Nullable Grant grant) {
		if (grant != null) {
			giveBack(serve(List.of(grant)));
		}
	}

	/** How many leases taken ahead wait in the buffer now. */
	synchronized int leasedAhead() {
		return this.buffer.size();
	}

	/** How many threads wait in {@code take} now. */
	synchronized int waitingTakers() {
		return countTakers();
	}

	/**
	 * The leases taken ahead that wait in the buffer, for the renewer, after giving back
	 * those that waited a whole lease duration: no thread took them for that long (the
	 * workers are busy or stopped asking), so other instances may.
	 */
	List<BufferedGrant> buffered() {
		List<Grant> overdue;
		List<BufferedGrant> waiting;
		synchronized (this) {
			overdue = this.buffer.takeOverdue(System.nanoTime());
			waiting = this.buffer.waiting();
		}
		giveBack(overdue);
		return waiting;
	}

	/**
	 * Gives back the leases taken ahead of the takers, in order, and asks for none ahead
	 * until a thread takes again (a pause).
	 * @return how many were given back
	 */
	int giveBackLeasedAhead() {
		List<Grant> grants;
		synchronized (this) {
			grants = this.buffer.drain(true);
		}
		giveBack(grants);
		return grants.size();
	}

	/**
	 * Releases the waiting takers (their {@link #take} returns {@code null}), gives back
	 * the leases taken ahead and stops granting leases; adds and dones already asked for
	 * are still sent.
	 */
	void shutDown() {
		List<Grant> grants;
		synchronized (this) {
			this.shuttingDown = true;
			for (Taker taker : this.takers) {
				taker.cancel();
			}
			this.takers.clear();
			grants = this.buffer.drain(false);
			unparkSender();
		}
		giveBack(grants);
		this.hints.forEach(WakeHints::close);
	}

	/**
	 * How long the sender has been busy reading replies or sending a batch, if longer
	 * than {@code thresholdNanos}: it never waits for Redis but within a bound, so that
	 * means it is stuck.
	 * @return the time it has been busy, or empty if it is not stalled
	 */
	Optional<Duration> stalledFor(long thresholdNanos) {
		long since = this.busySince;
		long busy = System.nanoTime() - since;
		return (since != 0 && busy > thresholdNanos) ? Optional.of(Duration.ofNanos(busy)) : Optional.empty();
	}

	/** The sender thread's stack, for the stall report; empty when none runs. */
	StackTraceElement[] senderStack() {
		Thread current = this.sender;
		return (current != null) ? current.getStackTrace() : new StackTraceElement[0];
	}

	/**
	 * The calling thread asked for something: the sender no longer waits for it, and
	 * stops lingering once none is awaited. Called under the monitor.
	 */
	private void arrived() {
		if (this.awaited.remove(Thread.currentThread()) && this.awaited.isEmpty()) {
			unparkSender();
		}
	}

	private void unparkSender() {
		Thread current = this.sender;
		if (current != null) {
			LockSupport.unpark(current);
		}
	}

	/** Starts the sending thread if none runs, or wakes it. Called under the monitor. */
	private void wakeSender() {
		if (this.running) {
			unparkSender();
			return;
		}
		this.running = true;
		Thread thread = new Thread(this::send, "workqueue-redis-" + this.name + "-batches");
		thread.setDaemon(true);
		thread.start();
	}

	private void send() {
		this.sender = Thread.currentThread();
		try {
			Work work;
			while ((work = next()) != null) {
				this.busySince = System.nanoTime() | 1;
				for (Flight flight : work.landed()) {
					land(flight);
				}
				if (work.batch() != null) {
					launch(work.batch());
				}
				this.busySince = 0;
			}
		}
		catch (InterruptedException ex) {
			// Nobody interrupts this thread; if it happens, a later request restarts it.
		}
		catch (RuntimeException ex) {
			logger.log(Level.ERROR,
					"workqueue '" + this.name + "': the thread that sends batches to Redis failed; another takes over",
					ex);
		}
		catch (Error ex) {
			logger.log(Level.ERROR, "workqueue '" + this.name + "': the thread that sends batches to Redis failed", ex);
			throw ex;
		}
		finally {
			this.busySince = 0;
			this.sender = null;
			synchronized (this) {
				this.running = false;
				if (hasRequests() || hasFlights() || hasTakers()) {
					wakeSender();
				}
			}
		}
	}

	/** What the sender does next: read the flights that landed, or send a batch. */
	private record Work(List<Flight> landed, @Nullable List<Part> batch) {
	}

	/** A shard's part of the next batch, with the takers it asks leases for. */
	private record Part(ShardBatch part, List<Taker> takers) {
	}

	/**
	 * Waits until a flight landed or there is something to send, and takes it.
	 * @return the work, or {@code null} when the queue is shutting down and nothing is
	 * left to send or to read
	 */
	private @Nullable Work next() throws InterruptedException {
		while (true) {
			long lingerNanos;
			long idleNanos;
			synchronized (this) {
				long now = System.nanoTime();
				timeOutOverdue(now);
				if (!this.landed.isEmpty()) {
					// Each flight is handed over once (Flight.handOver), and stays flying
					// until it is read.
					List<Flight> read = new ArrayList<>();
					for (Flight flight; (flight = this.landed.poll()) != null;) {
						read.add(flight);
					}
					return new Work(read, null);
				}
				boolean ready = sendable(now);
				lingerNanos = (this.awaited.isEmpty()) ? 0 : this.lingerUntil - now;
				if (ready && lingerNanos <= 0) {
					return new Work(List.of(), nextBatch(now));
				}
				if (ready) {
					idleNanos = 0;
				}
				else {
					lingerNanos = 0;
					if (this.shuttingDown && !hasRequests() && !hasFlights()) {
						this.running = false;
						return null;
					}
					idleNanos = idleNanos(now);
				}
			}
			park((lingerNanos > 0) ? lingerNanos : idleNanos);
		}
	}

	/**
	 * Parks the sender outside the monitor, lingering for the awaited threads or idle
	 * until there is something to do: whoever gives it something to do unparks it (a
	 * request, an awaited thread's arrival, a landing, a hint), so that a hand-off costs
	 * one wake-up.
	 * @param nanos how long at most, {@code Long.MAX_VALUE} for no limit
	 */
	private void park(long nanos) throws InterruptedException {
		if (nanos == Long.MAX_VALUE) {
			LockSupport.park(this);
		}
		else {
			LockSupport.parkNanos(this, nanos);
		}
		if (Thread.interrupted()) {
			throw new InterruptedException();
		}
	}

	/**
	 * Gives up on the flights past their deadline that have not landed: each is handed to
	 * {@link #landed} as a timeout, by its cancelled reply's callback. Called under the
	 * monitor.
	 */
	private void timeOutOverdue(long now) {
		for (Flight flight : this.flying) {
			if (flight != null && now - flight.deadlineNanos >= 0 && flight.handOver()) {
				flight.timeOut();
				this.landed.add(flight);
			}
		}
	}

	/** Whether the next batch would carry anything. Called under the monitor. */
	private boolean sendable(long now) {
		for (int shard = 0; shard < this.flying.length; shard++) {
			if (this.flying[shard] == null && this.pending.sendable(shard, now)) {
				return true;
			}
		}
		return askShard(now, false) >= 0;
	}

	/**
	 * The shard the takers' lease ask goes to now, or -1 if none is due or free: from the
	 * turn on, the first shard with no flight and no backoff. Called under the monitor.
	 * @param batchGoes whether a batch is made anyway: then the waiting takers are asked
	 * for in it even before their poll is due, as the ask costs the round trip nothing
	 */
	private int askShard(long now, boolean batchGoes) {
		boolean due = hasTakers() && (batchGoes || this.hinted || now - this.pollAt >= 0);
		due = due || this.buffer.refillDue(now, this.shuttingDown);
		if (!due || (this.asking != null && now - this.asking.sentNanos < ASK_PATIENCE_NANOS)) {
			return -1;
		}
		for (int i = 0; i < this.flying.length; i++) {
			int shard = (this.turn + i) % this.flying.length;
			if (this.flying[shard] == null && this.pending.retryDue(shard, now)) {
				return shard;
			}
		}
		return -1;
	}

	/**
	 * How long the sender may stay idle at most: until a retry's time, the takers' poll,
	 * an ask's patience or a flight's deadline, or {@code Long.MAX_VALUE} for none; a
	 * request, a landing or a hint ends it sooner. Called under the monitor.
	 */
	private long idleNanos(long now) {
		long wakeAt = now + Long.MAX_VALUE / 2;
		boolean timed = false;
		for (int shard = 0; shard < this.flying.length; shard++) {
			Flight flight = this.flying[shard];
			if (flight != null) {
				wakeAt = earlier(wakeAt, flight.deadlineNanos);
				timed = true;
			}
			else if (!this.pending.retryDue(shard, now) && (this.pending.hasDones(shard) || hasTakers())) {
				wakeAt = earlier(wakeAt, this.pending.retryAt(shard));
				timed = true;
			}
		}
		if (this.asking == null && this.buffer.refillWaits(now)) {
			// The buffer is half empty and its last ask was short: asked again later.
			wakeAt = earlier(wakeAt, this.buffer.refillAt());
			timed = true;
		}
		if (hasTakers()) {
			if (!this.hinted && now - this.pollAt < 0) {
				wakeAt = earlier(wakeAt, this.pollAt);
			}
			else if (this.asking != null) {
				wakeAt = earlier(wakeAt, this.asking.sentNanos + ASK_PATIENCE_NANOS);
			}
			timed = true;
		}
		return timed ? Math.max(1, wakeAt - now) : Long.MAX_VALUE;
	}

	private static long earlier(long a, long b) {
		return (b - a < 0) ? b : a;
	}

	/**
	 * Takes what the next batch carries, one part per shard. Called under the monitor.
	 */
	private List<Part> nextBatch(long now) {
		// Asked before the hint is cleared: the ask is due because of it.
		int askShard = askShard(now, true);
		this.hinted = false;
		this.awaited.clear();
		List<Taker> included = List.of();
		int extras = 0;
		if (askShard >= 0) {
			int wanted = Math.min(MOST_PER_BATCH, countTakers());
			included = new ArrayList<>(wanted);
			for (Taker taker : this.takers) {
				if (included.size() == wanted) {
					break;
				}
				included.add(taker);
			}
			extras = this.buffer.ask(wanted, MOST_PER_BATCH - wanted, this.shuttingDown);
			this.turn = (askShard + 1) % this.flying.length;
		}
		List<Part> parts = new ArrayList<>();
		for (int shard = 0; shard < this.flying.length; shard++) {
			if (this.flying[shard] != null) {
				continue;
			}
			List<BatchRequest.Add> shardAdds = this.pending.takeAdds(shard);
			List<BatchRequest.Done> shardDones = this.pending.takeDones(shard, now);
			List<Taker> shardTakers = (shard == askShard) ? included : List.of();
			int wanted = (shard == askShard) ? shardTakers.size() + extras : 0;
			if (!shardAdds.isEmpty() || !shardDones.isEmpty() || wanted > 0) {
				parts.add(new Part(new ShardBatch(shard, shardAdds, shardDones, wanted), shardTakers));
			}
		}
		return parts;
	}

	private boolean hasRequests() {
		return !this.pending.isEmpty();
	}

	private boolean hasFlights() {
		for (Flight flight : this.flying) {
			if (flight != null) {
				return true;
			}
		}
		return !this.landed.isEmpty();
	}

	private boolean hasTakers() {
		return countTakers() > 0;
	}

	/** Counts the takers still waiting, dropping the others. Called under the monitor. */
	private int countTakers() {
		this.takers.removeIf((taker) -> !taker.isWaiting());
		return this.takers.size();
	}

	/**
	 * Sends each part of a batch to its shard, all together, without waiting for the
	 * replies: each comes back through {@link #landed}.
	 */
	private void launch(List<Part> batch) {
		String now = this.now.get();
		Duration replyTimeout = this.link.replyTimeout();
		if (!replyTimeout.equals(this.endedMemoryFor)) {
			this.endedMemoryFor = replyTimeout;
			this.fixedArgs[3] = Long.toString(endedMemory(replyTimeout).toNanos() / 1000);
		}
		long sentNanos = System.nanoTime();
		List<Flight> flights = new ArrayList<>(batch.size());
		for (Part planned : batch) {
			ShardBatch part = planned.part();
			Flight flight;
			try {
				SentScript<List<Object>> script = this.link.send(Script.BATCH, ScriptOutputType.MULTI,
						this.shards.keys(part.shard()).all(),
						(part.hasWrites() && this.ack.isAsked()) ? this.ack : null, part.args(now, this.fixedArgs));
				flight = Flight.sent(part, planned.takers(), sentNanos, script);
			}
			catch (RuntimeException ex) {
				// Not connected, or the client was shut down: a failure like any other.
				flight = Flight.notSent(part, planned.takers(), sentNanos, ex);
			}
			flights.add(flight);
		}
		synchronized (this) {
			for (Flight flight : flights) {
				this.flying[flight.shard()] = flight;
				if (flight.part.wanted() > 0) {
					this.asking = flight;
				}
				if (!flight.wasSent()) {
					this.landed.add(flight);
				}
				for (BatchRequest.Done done : flight.part.dones()) {
					if (done.lease.taker == done.requester) {
						this.awaited.add(done.requester);
					}
				}
			}
		}
		for (Flight flight : flights) {
			Flight sent = flight;
			sent.whenAnswered(() -> landed(sent));
		}
	}

	/**
	 * A flight's reply came or it failed: handed to the sender. Runs on a Lettuce thread
	 * (or the sender's, for a reply already there).
	 */
	private void landed(Flight flight) {
		if (flight.handOver()) {
			this.landed.add(flight);
			unparkSender();
		}
	}

	/**
	 * Reads a flight that landed: completes its adds and dones and hands out its grants,
	 * or, if it failed, fails its adds and queues its dones for a retry.
	 */
	private void land(Flight flight) {
		synchronized (this) {
			if (this.flying[flight.shard()] == flight) {
				this.flying[flight.shard()] = null;
			}
			if (this.asking == flight) {
				this.asking = null;
			}
		}
		if (flight.wantsSecondTry()) {
			// The server lacked the library (a new or promoted master) or refused
			// functions: mended off this thread, so that no other shard waits for it.
			Flight second = flight.secondTry(this.link.helpers());
			synchronized (this) {
				this.flying[second.shard()] = second;
				if (second.part.wanted() > 0) {
					this.asking = second;
				}
			}
			second.whenAnswered(() -> landed(second));
			return;
		}
		synchronized (this) {
			this.buffer.answered(flight.part.wanted() - flight.takers.size());
		}
		List<Object> reply;
		try {
			reply = flight.reply();
		}
		catch (RuntimeException ex) {
			RedisException failure = (ex instanceof RedisException redis) ? redis : new RedisException(ex);
			// Redis applies nothing of a script it answers with an error, nor of one that
			// was not sent.
			failed(flight.part, failure, flight.wasSent() && !(failure instanceof RedisCommandExecutionException));
			flight.takers.forEach(Taker::tried);
			return;
		}
		this.outage.succeeded();
		synchronized (this) {
			this.pending.answered(flight.shard());
		}
		boolean answered;
		try {
			answered = read(flight.part, flight.takers.size(), reply, flight.sentNanos, fellShort(flight));
		}
		catch (RuntimeException ex) {
			// A reply this code cannot read: the part's callers must not wait forever.
			logger.log(Level.ERROR, "workqueue '" + this.name + "': a batch failed", ex);
			abandon(flight.part, new RedisException(ex));
			answered = true;
		}
		if (answered) {
			flight.takers.forEach(Taker::tried);
		}
		synchronized (this) {
			this.lingerUntil = System.nanoTime() + LINGER_NANOS;
		}
	}

	/**
	 * How far the replicas fell short of confirming the flight's writes, or {@code null}
	 * if they did not or none were asked.
	 */
	private ReplicaAck.@Nullable Shortfall fellShort(Flight flight) {
		return (flight.part.hasWrites() && this.ack.isAsked()) ? this.ack.judge(flight.confirmedReplicas()) : null;
	}

	/**
	 * Completes a shard's adds and dones and hands out its grants.
	 * @param forTakers how many of the leases asked for were for waiting takers
	 * @param shortOf how far the replicas fell short of confirming the writes, or
	 * {@code null}
	 * @return false if the shard had too few leases for the takers and another shard is
	 * to be asked
	 */
	private boolean read(ShardBatch part, int forTakers, List<Object> reply, long sent,
			ReplicaAck.@Nullable Shortfall shortOf) {
		ShardBatch.Answer answer = part.complete(reply, sent, shortOf);
		if (part.wanted() == 0) {
			return true;
		}
		List<Grant> grants = answer.grants();
		int granted = grants.size();
		giveBack(serve(grants));
		if (granted < forTakers) {
			return shardWasShort(answer.nextEventMicros(), sent);
		}
		synchronized (this) {
			this.shortShards = 0;
			this.soonestEventMicros = -1;
			this.buffer.shardAnswered(granted < part.wanted(), System.nanoTime());
		}
		return true;
	}

	/**
	 * A shard had fewer leases than asked for: the next shard is asked at once; once
	 * every shard in a row was short, the takers wait for a hint or the soonest event
	 * (unless one of them came after the ask was sent).
	 * @return whether every shard in a row was short
	 */
	private boolean shardWasShort(long nextEventMicros, long askSentNanos) {
		synchronized (this) {
			if (nextEventMicros >= 0 && (this.soonestEventMicros < 0 || nextEventMicros < this.soonestEventMicros)) {
				this.soonestEventMicros = nextEventMicros;
			}
			if (++this.shortShards < this.shards.count()) {
				this.pollAt = System.nanoTime();
				return false;
			}
			long wait = this.longestBlockNanos;
			if (this.soonestEventMicros >= 0) {
				wait = Math.min(wait, Math.max(SHORTEST_POLL_NANOS, this.soonestEventMicros * 1000));
			}
			// A taker that came after the ask was sent was not asked for: it is asked at
			// once.
			this.pollAt = System.nanoTime() + ((this.lastTakerNanos - askSentNanos > 0) ? 0 : wait);
			this.shortShards = 0;
			this.soonestEventMicros = -1;
		}
		for (int shard = 0; shard < this.hints.size(); shard++) {
			int hinted = shard;
			this.hints.get(shard).listen((popped) -> hintEnded(hinted, popped));
		}
		return true;
	}

	/**
	 * Hands each grant, in order, to the first taker still waiting, or else to the buffer
	 * while it has room: all at once, so that a served taker finds the buffer filled.
	 * @return the grants that neither took
	 */
	private synchronized List<Grant> serve(List<Grant> grants) {
		List<Grant> unclaimed = new ArrayList<>(0);
		for (Grant grant : grants) {
			if (!serveTaker(grant)) {
				if (!this.buffer.keep(grant, this.shuttingDown)) {
					unclaimed.add(grant);
				}
			}
		}
		return unclaimed;
	}

	/** Hands a grant to the first taker still waiting. Called under the monitor. */
	private boolean serveTaker(Grant grant) {
		Taker taker;
		while ((taker = this.takers.poll()) != null) {
			if (taker.serve(grant)) {
				return true;
			}
		}
		return false;
	}

	/**
	 * Gives back grants that no thread took, in order: the scripts leave now, from the
	 * calling thread (so that they go before anything this instance sends later, its
	 * close included), and their replies are read on a helper thread, so that the caller
	 * never waits for a shard that stopped answering just now.
	 */
	private void giveBack(List<Grant> grants) {
		if (grants.isEmpty()) {
			return;
		}
		// Each goes to the head of its queue: the last first, so that they keep their
		// order.
		List<Grant> lastFirst = new ArrayList<>(grants);
		Collections.reverse(lastFirst);
		List<SentScript<Long>> sent;
		try {
			sent = this.returns.send(lastFirst.stream().map(Grant::encoded).toList(),
					lastFirst.stream().map(Grant::token).toList());
		}
		catch (RuntimeException ex) {
			couldNotGiveBack(grants, ex);
			return;
		}
		this.link.helpers().execute(() -> {
			try {
				sent.forEach(SentScript::reply);
			}
			catch (RuntimeException ex) {
				couldNotGiveBack(grants, ex);
			}
		});
	}

	private void couldNotGiveBack(List<Grant> grants, RuntimeException ex) {
		logger.log(Level.WARNING, "workqueue '" + this.name + "': could not give back " + grants.size()
				+ " leases that no thread took (" + ex + "); they come back when they expire");
	}

	/**
	 * A blocking pop ended: a hint wakes the takers' next batch; a hint that finds no
	 * taker here is passed on to another instance.
	 */
	private void hintEnded(int shard, boolean popped) {
		if (!popped) {
			return;
		}
		boolean passOn;
		synchronized (this) {
			boolean waited = hasTakers();
			passOn = !waited && !this.shuttingDown;
			if (waited) {
				this.hinted = true;
				this.turn = shard;
				unparkSender();
			}
		}
		if (passOn) {
			try {
				this.link.pushHint(this.shards.keys(shard).wake());
			}
			catch (RuntimeException ex) {
				// The hint is lost; the other instances poll within longestBlock.
			}
		}
	}

	/**
	 * Ends every request of a part whose reply could not be read: adds fail, dones report
	 * no answer. A request already completed keeps its outcome.
	 */
	private void abandon(ShardBatch part, RedisException ex) {
		for (BatchRequest.Add add : part.adds()) {
			add.complete(false, unconfirmed(add, "an unreadable reply from Redis", ex));
		}
		for (BatchRequest.Done done : part.dones()) {
			done.complete(null);
		}
	}

	private UnconfirmedAddException unconfirmed(BatchRequest.Add add, String why, RedisException cause) {
		return new UnconfirmedAddException(this.name, add.encoded, why + " (" + cause.getMessage() + ")", cause);
	}

	/**
	 * A shard's part failed: its adds fail, its dones wait for a retry after the shard's
	 * backoff, until their last attempt is due (or the connection was closed: then their
	 * outcome will never be known). A done's interrupted caller stops waiting.
	 * @param maybeApplied whether Redis may have run the part: its adds then fail with an
	 * {@link UnconfirmedAddException}
	 */
	private void failed(ShardBatch part, RedisException ex, boolean maybeApplied) {
		this.outage.failed(ex);
		boolean closed = this.link.isClosed();
		for (BatchRequest.Add add : part.adds()) {
			add.complete(false, maybeApplied ? unconfirmed(add, "no answer from Redis", ex) : ex);
		}
		List<BatchRequest.Done> retry = new ArrayList<>();
		long now = System.nanoTime();
		for (BatchRequest.Done done : part.dones()) {
			if (now - done.askUntilNanos > 0 || closed) {
				done.complete(null);
			}
			else {
				if (done.requester.isInterrupted()) {
					done.release();
				}
				retry.add(done);
			}
		}
		int shard = part.shard();
		synchronized (this) {
			this.pending.retryLater(shard, retry, now);
		}
	}

}
