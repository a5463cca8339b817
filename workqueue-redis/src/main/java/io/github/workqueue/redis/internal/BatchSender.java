package io.github.workqueue.redis.internal;

import java.lang.System.Logger.Level;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import java.util.function.Supplier;

import io.github.workqueue.redis.RedisQueue;
import io.lettuce.core.ScriptOutputType;
import org.jspecify.annotations.Nullable;

/**
 * The {@link Batcher}'s sender: one thread that makes the batches from what the callers
 * asked, sends each shard's part without waiting for its reply, and reads the replies
 * (completes the adds and dones, hands out the grants, retries the dones of a part that
 * failed). It starts when there is something to send and ends when the batcher is
 * shutting down and no add, done or flight is left; a later add or done starts it again.
 *
 * <p>
 * After a batch answered the dones of threads that took their lease themselves, the next
 * batch waits for those threads, until each has asked again or {@link #LINGER_NANOS}
 * passed, to carry their requests together (most ask for their next item at once); unless
 * an add whose caller waits for it is pending, which the linger would hold.
 *
 * <p>
 * <b>Concurrency.</b> The state it shares with the callers (the pending requests, the
 * takers, the buffer, the flights) and the fields without a note of their own are guarded
 * by the batcher's monitor, which is never held across I/O or a wait: the sender parks
 * outside it, and whoever gives it something to do unparks it. The replies are read on
 * the sender ({@link BatchReplies}).
 */
final class BatchSender {

	private static final System.Logger logger = System.getLogger(RedisQueue.class.getName());

	private static final long LINGER_NANOS = TimeUnit.MICROSECONDS.toNanos(200);

	/** The batcher's monitor, which guards the shared state. */
	private final Object lock;

	private final String name;

	private final RedisLink link;

	private final Shards shards;

	private final Supplier<String> now;

	private final PendingRequests pending;

	private final LeaseAsks asks;

	private final LeaseAheadBuffer buffer;

	private final Flights flights;

	/** How many replicas confirm a batch of adds and dones before their callers hear. */
	private final ReplicaAck ack;

	private final BatchReplies replies;

	/**
	 * holder, lease, most expiries, ended lease memory: ARGV 2 to 5 of every batch. The
	 * memory is set before a batch, when the command timeout it derives from changed
	 * ({@link #endedMemory}). Read and written by the sender only.
	 */
	private final String[] fixedArgs;

	/** The command timeout the ended lease memory in {@code fixedArgs} was made for. */
	private @Nullable Duration endedMemoryFor;

	/** How long a done keeps being asked ({@link Batcher#askingTime()}). */
	private final Duration askingTime;

	/**
	 * Threads whose done the last batch answered and that took their lease themselves:
	 * the next batch waits for them, until each has asked or {@link #LINGER_NANOS}
	 * passed.
	 */
	private final Set<Thread> awaited = new HashSet<>();

	private long lingerUntil;

	/**
	 * The sender parked, or is about to, until the linger ends: it wakes by itself then
	 * and sends what came meanwhile.
	 */
	private boolean lingering;

	private boolean running;

	/** The sender thread while it runs, for the stall watchdog's report. */
	private volatile @Nullable Thread thread;

	/**
	 * When the sender went off to read replies or send a batch, or 0 while it waits for
	 * work: a sender busy for long is stalled ({@link #stalledFor}). Written by the
	 * sender only.
	 */
	private volatile long busySince;

	/**
	 * @param now the time as Redis's scripts take it
	 * @param fixedArgs holder, lease in microseconds, most expiries
	 * @param askingTime how long a done keeps being asked
	 */
	BatchSender(BatcherState state, Supplier<String> now, String[] fixedArgs, Duration askingTime) {
		this.lock = state.lock();
		this.name = state.name();
		this.link = state.link();
		this.shards = state.shards();
		this.pending = state.pending();
		this.asks = state.asks();
		this.buffer = state.buffer();
		this.flights = state.flights();
		this.ack = state.ack();
		this.replies = new BatchReplies(state, this::unpark);
		this.now = now;
		this.fixedArgs = Arrays.copyOf(fixedArgs, 4);
		this.askingTime = askingTime;
	}

	/**
	 * The calling thread asked for something: the sender no longer waits for it, and
	 * stops lingering once none is awaited. Called under the monitor.
	 */
	void arrived() {
		if (this.awaited.remove(Thread.currentThread()) && this.awaited.isEmpty()) {
			unpark();
		}
	}

	/** Wakes the sender, if it runs. */
	void unpark() {
		Thread current = this.thread;
		if (current != null) {
			LockSupport.unpark(current);
		}
	}

	/** Starts the sender if none runs, or wakes it. Called under the monitor. */
	void wake() {
		if (this.running) {
			unpark();
			return;
		}
		this.running = true;
		Thread started = new Thread(this::run, "workqueue-redis-" + this.name + "-batches");
		started.setDaemon(true);
		started.start();
	}

	/**
	 * Starts the sender if none runs, or wakes it for a request to the given shard unless
	 * it would find nothing to do: while the shard's part is on its way the request waits
	 * for the next part, and the landing (or the flight's deadline) wakes the sender;
	 * while the sender lingers it wakes by itself when the linger ends. A request that
	 * woke the sender for nothing cost a park and an unpark per request. Called under the
	 * monitor.
	 */
	void wakeFor(int shard) {
		if (!this.running || (this.flights.isFree(shard) && !this.lingering)) {
			wake();
		}
	}

	/**
	 * Starts the sender if none runs, or wakes it for a lease ask unless it would find
	 * nothing to do: every shard's part is on its way, or it lingers. Called under the
	 * monitor.
	 */
	void wakeForLeases() {
		if (!this.running || (this.flights.anyFree() && !this.lingering)) {
			wake();
		}
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
	StackTraceElement[] stack() {
		Thread current = this.thread;
		return (current != null) ? current.getStackTrace() : new StackTraceElement[0];
	}

	private void run() {
		this.thread = Thread.currentThread();
		try {
			Work work;
			while ((work = next()) != null) {
				this.busySince = System.nanoTime() | 1;
				for (Flight flight : work.landed()) {
					if (this.replies.read(flight)) {
						synchronized (this.lock) {
							this.lingerUntil = System.nanoTime() + LINGER_NANOS;
						}
					}
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
			this.thread = null;
			synchronized (this.lock) {
				this.running = false;
				if (!this.pending.isEmpty() || this.flights.any() || this.asks.any()) {
					wake();
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
	 * @return the work, or {@code null} when the batcher is shutting down and nothing is
	 * left to send or to read
	 */
	private @Nullable Work next() throws InterruptedException {
		while (true) {
			long lingerNanos;
			long idleNanos;
			synchronized (this.lock) {
				long now = System.nanoTime();
				this.flights.timeOutOverdue(now);
				if (this.flights.anyLanded()) {
					// Each flight is handed over once (Flight.handOver), and stays flying
					// until it is read.
					return new Work(this.flights.takeLanded(), null);
				}
				boolean ready = sendable(now);
				// No linger while a caller waits for an add and takers wait
				// already: their asks ride in this batch, and a linger would hold
				// that caller.
				lingerNanos = (this.awaited.isEmpty() || (this.pending.hasAwaitedAdds() && this.asks.any())) ? 0
						: this.lingerUntil - now;
				this.lingering = ready && lingerNanos > 0;
				if (ready && lingerNanos <= 0) {
					return new Work(List.of(), nextBatch(now));
				}
				if (ready) {
					idleNanos = 0;
				}
				else {
					lingerNanos = 0;
					if (this.asks.isShutDown() && this.pending.isEmpty() && !this.flights.any()) {
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

	/** Whether the next batch would carry anything. Called under the monitor. */
	private boolean sendable(long now) {
		for (int shard = 0; shard < this.flights.shards(); shard++) {
			if (this.flights.isFree(shard) && this.pending.sendable(shard, now)) {
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
		boolean due = this.asks.due(now, batchGoes) || this.buffer.refillDue(now, this.asks.isShutDown());
		if (!due || this.asks.awaitsAnswer(now)) {
			return -1;
		}
		int count = this.flights.shards();
		for (int i = 0; i < count; i++) {
			int shard = (this.asks.turn() + i) % count;
			if (this.flights.isFree(shard) && this.pending.retryDue(shard, now)) {
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
		boolean takers = this.asks.any();
		for (int shard = 0; shard < this.flights.shards(); shard++) {
			Flight flight = this.flights.of(shard);
			if (flight != null) {
				wakeAt = earlier(wakeAt, flight.deadlineNanos);
				timed = true;
			}
			else if (!this.pending.retryDue(shard, now) && (this.pending.hasDones(shard) || takers)) {
				wakeAt = earlier(wakeAt, this.pending.retryAt(shard));
				timed = true;
			}
		}
		if (!this.asks.isAsking() && this.buffer.refillWaits(now)) {
			// The buffer is half empty and its last ask was short: asked again later.
			wakeAt = earlier(wakeAt, this.buffer.refillAt());
			timed = true;
		}
		if (takers) {
			wakeAt = this.asks.wakeAt(now, wakeAt);
			timed = true;
		}
		return timed ? Math.max(1, wakeAt - now) : Long.MAX_VALUE;
	}

	/** The earlier of two {@link System#nanoTime()} readings. */
	static long earlier(long a, long b) {
		return (b - a < 0) ? b : a;
	}

	/**
	 * Takes what the next batch carries, one part per shard. Called under the monitor.
	 */
	private List<Part> nextBatch(long now) {
		// Asked before the hint is spent: the ask is due because of it.
		int askShard = askShard(now, true);
		this.asks.batchMade();
		this.awaited.clear();
		List<Taker> included = List.of();
		int extras = 0;
		if (askShard >= 0) {
			included = this.asks.askOf(askShard, Batcher.MOST_PER_BATCH);
			extras = this.buffer.ask(included.size(), Batcher.MOST_PER_BATCH - included.size(), this.asks.isShutDown());
		}
		List<Part> parts = new ArrayList<>();
		for (int shard = 0; shard < this.flights.shards(); shard++) {
			if (!this.flights.isFree(shard)) {
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

	/**
	 * How long Redis remembers a lease that a done ended, or that a done was rejected
	 * for: the asking time and two command timeouts, so that a done's last attempt, which
	 * Redis runs within a command timeout of its sending if it answers it, still finds
	 * the first attempt's record.
	 */
	private Duration endedMemory(Duration replyTimeout) {
		return this.askingTime.plus(replyTimeout.multipliedBy(2));
	}

	/**
	 * Sends each part of a batch to its shard, all together, without waiting for the
	 * replies: each comes back through {@link BatchReplies#landed}.
	 */
	private void launch(List<Part> batch) {
		String now = this.now.get();
		Duration replyTimeout = this.link.replyTimeout();
		if (!replyTimeout.equals(this.endedMemoryFor)) {
			this.endedMemoryFor = replyTimeout;
			this.fixedArgs[3] = Long.toString(endedMemory(replyTimeout).toNanos() / 1000);
		}
		long sentNanos = System.nanoTime();
		List<Flight> sent = new ArrayList<>(batch.size());
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
			sent.add(flight);
		}
		synchronized (this.lock) {
			for (Flight flight : sent) {
				this.flights.sent(flight);
				this.asks.sent(flight);
				for (BatchRequest.Done done : flight.part.dones()) {
					if (done.lease.taker == done.requester) {
						this.awaited.add(done.requester);
					}
				}
			}
		}
		for (Flight flight : sent) {
			flight.whenAnswered(() -> this.replies.landed(flight));
		}
	}

}
