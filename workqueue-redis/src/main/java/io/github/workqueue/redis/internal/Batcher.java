package io.github.workqueue.redis.internal;

import java.lang.System.Logger.Level;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import java.util.function.Supplier;

import io.github.workqueue.redis.RedisQueue;
import io.lettuce.core.RedisException;
import io.lettuce.core.ScriptOutputType;
import org.jspecify.annotations.Nullable;

/**
 * Sends to Redis together what one instance's threads ask of one queue: adds, dones, and
 * leases for the threads waiting in {@code get}, in one run of {@code batch.lua} per
 * shard (adds first, then dones, then leases, so that an item added here can go to a
 * getter here in the same round trip); the scripts for several shards are sent together.
 * One thread sends the batches: while one is on its way the next gathers, so a round trip
 * carries more the more threads ask, and Redis runs one script where it ran one per call.
 *
 * <p>
 * Leases are asked of one shard per batch, the shards in turn, so that every shard is
 * served; a shard that has fewer than asked for passes the turn on at once, and only when
 * every shard in a row had too few do the takers wait (for a hint from any shard, or the
 * soonest waiting item or lease deadline of all).
 *
 * <p>
 * A thread waiting in {@link #take} holds a {@link Taker}. A lease is granted only for a
 * taker that waits when the batch is made; a grant goes to the first taker still waiting
 * when the reply comes (the others timed out, were interrupted or released by shutdown),
 * and a grant that finds none is given back at once (its item returns to the head of the
 * queue, not counted as a redelivery). While takers wait and Redis has nothing for them,
 * one {@code BLPOP} per instance and shard ({@link WakeHints}) waits for a hint, and the
 * batch runs again at the latest when the next waiting item or lease deadline is due, or
 * after {@code longestBlock}.
 *
 * <p>
 * Through an outage, adds fail at once (the caller sees the exception, as with any Redis
 * command); dones are retried with backoff until their give-up time or until their thread
 * is interrupted; takers keep waiting until their timeout.
 *
 * <p>
 * Thread-safe. The sending thread starts when there is something to send and ends when
 * the queue is shutting down and no add or done is left; a later add or done starts it
 * again. The request lists, the takers, {@code hinted}, {@code pollAt}, {@code retryAt}
 * and {@code running} are guarded by this object's monitor; each request's outcome by its
 * own monitor, written once.
 */
final class Batcher {

	private static final System.Logger logger = System.getLogger(RedisQueue.class.getName());

	/** The most adds, dones or leases one batch carries, to keep one script short. */
	private static final int MOST_PER_BATCH = 256;

	private static final long FIRST_BACKOFF_NANOS = TimeUnit.MILLISECONDS.toNanos(50);

	private static final long LONGEST_BACKOFF_NANOS = TimeUnit.SECONDS.toNanos(2);

	private static final long SHORTEST_POLL_NANOS = TimeUnit.MILLISECONDS.toNanos(1);

	private static final long LINGER_NANOS = TimeUnit.MICROSECONDS.toNanos(200);

	private final String name;

	private final RedisLink link;

	private final Shards shards;

	private final LeaseReturns returns;

	private final Supplier<String> now;

	/** holder, lease, most expiries, ended lease memory: ARGV 2 to 5 of every batch. */
	private final String[] fixedArgs;

	private final long longestBlockNanos;

	private final OutageLog outage;

	/** One listener per shard. */
	private final List<WakeHints> hints;

	private final ArrayDeque<BatchRequest.Add> adds = new ArrayDeque<>();

	private final ArrayDeque<BatchRequest.Done> dones = new ArrayDeque<>();

	private final ArrayDeque<Taker> takers = new ArrayDeque<>();

	/** A hint was popped since the last batch was made. */
	private boolean hinted;

	/** When the takers' next batch is due, without a hint ({@link System#nanoTime()}). */
	private long pollAt;

	/** Before this time, after a failed batch, only adds are sent. */
	private long retryAt = System.nanoTime();

	private long backoffNanos = FIRST_BACKOFF_NANOS;

	private boolean running;

	private boolean shuttingDown;

	/** The shard the next batch asks for leases. */
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

	/**
	 * The sending thread, while it parks for {@link #awaited}; it is unparked when they
	 * came.
	 */
	private @Nullable Thread lingeringSender;

	Batcher(String name, RedisLink link, Shards shards, Supplier<String> now, String[] fixedArgs,
			long longestBlockNanos, OutageLog outage) {
		this.name = name;
		this.link = link;
		this.shards = shards;
		this.returns = new LeaseReturns(link, shards, now);
		this.now = now;
		this.fixedArgs = fixedArgs.clone();
		this.longestBlockNanos = longestBlockNanos;
		this.outage = outage;
		List<WakeHints> listeners = new ArrayList<>(shards.count());
		for (int shard = 0; shard < shards.count(); shard++) {
			listeners.add(link.wakeHints(shards.keys(shard).wake(), Duration.ofNanos(longestBlockNanos)));
		}
		this.hints = List.copyOf(listeners);
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
	 * @throws RedisException if the batch failed
	 */
	boolean add(String encoded) {
		return add(new BatchRequest.Add(this.shards.of(encoded), encoded));
	}

	/**
	 * Adds an item with a priority and fairness keys, in the next batch.
	 * @param priority the add's priority
	 * @param keys the item's fairness keys as JSON, or empty
	 * @return whether the add made the item dirty
	 * @throws RedisException if the batch failed
	 */
	boolean add(String encoded, int priority, String keys) {
		return add(new BatchRequest.Add(this.shards.of(encoded), encoded, Integer.toString(priority), keys));
	}

	private boolean add(BatchRequest.Add request) {
		synchronized (this) {
			this.adds.add(request);
			arrived();
			wakeSender();
		}
		request.await();
		if (request.failure != null) {
			throw request.failure;
		}
		return request.made;
	}

	/**
	 * Ends a lease, in the next batch; through an outage, retried until the give-up time
	 * or until the calling thread is interrupted. Waits uninterruptibly (the interrupt is
	 * kept).
	 * @return whether Redis accepted the lease's token, or {@code null} if Redis could
	 * not be reached in time
	 */
	@Nullable Boolean done(HeldLease lease, long giveUpAtNanos) {
		BatchRequest.Done request = new BatchRequest.Done(this.shards.of(lease.encoded), lease, giveUpAtNanos,
				Thread.currentThread());
		synchronized (this) {
			this.dones.add(request);
			arrived();
			wakeSender();
		}
		request.await();
		return request.accepted;
	}

	/**
	 * Waits for a lease granted to the calling thread.
	 * @return the grant, or {@code null} if none came within the timeout (but not before
	 * one batch asked Redis for it) or the queue is shutting down
	 * @throws InterruptedException if interrupted before a grant came; one that came
	 * meanwhile is returned, with the interrupt status set
	 */
	@Nullable Grant take(long timeoutNanos) throws InterruptedException {
		Taker taker = new Taker();
		synchronized (this) {
			if (this.shuttingDown) {
				return null;
			}
			this.takers.add(taker);
			arrived();
			this.pollAt = System.nanoTime();
			wakeSender();
		}
		long start = System.nanoTime();
		try {
			synchronized (taker) {
				while (taker.waiting) {
					long remaining = (timeoutNanos == Long.MAX_VALUE) ? Long.MAX_VALUE
							: timeoutNanos - (System.nanoTime() - start);
					if (remaining <= 0 && taker.tried) {
						break;
					}
					if (remaining <= 0 || remaining == Long.MAX_VALUE) {
						// Even with no time left, one batch asks Redis for this taker.
						taker.wait();
					}
					else {
						TimeUnit.NANOSECONDS.timedWait(taker, remaining);
					}
				}
			}
		}
		catch (InterruptedException ex) {
			taker.cancel();
			if (taker.grant == null) {
				throw ex;
			}
			Thread.currentThread().interrupt();
		}
		taker.cancel();
		return taker.grant;
	}

	/**
	 * Releases the waiting takers (their {@link #take} returns {@code null}) and stops
	 * granting leases; adds and dones already asked for are still sent.
	 */
	void shutDown() {
		synchronized (this) {
			this.shuttingDown = true;
			for (Taker taker : this.takers) {
				taker.cancel();
			}
			this.takers.clear();
			notifyAll();
		}
		this.hints.forEach(WakeHints::close);
	}

	/**
	 * The calling thread asked for something: the sender no longer waits for it, and
	 * stops lingering once none is awaited. Called under the monitor.
	 */
	private void arrived() {
		if (this.awaited.remove(Thread.currentThread()) && this.awaited.isEmpty() && this.lingeringSender != null) {
			LockSupport.unpark(this.lingeringSender);
		}
	}

	/** Starts the sending thread if none runs, or wakes it. Called under the monitor. */
	private void wakeSender() {
		if (this.running) {
			notifyAll();
			return;
		}
		this.running = true;
		Thread sender = new Thread(this::send, "workqueue-redis-" + this.name + "-batches");
		sender.setDaemon(true);
		sender.start();
	}

	private void send() {
		try {
			Batch batch;
			while ((batch = next()) != null) {
				try {
					run(batch);
				}
				catch (RuntimeException ex) {
					// A reply this code cannot read: the batch's callers must not wait
					// forever.
					logger.log(Level.ERROR, "workqueue '" + this.name + "': a batch failed", ex);
					abandon(batch, new RedisException(ex));
				}
			}
		}
		catch (InterruptedException ex) {
			// Nobody interrupts this thread; if it happens, a later request restarts it.
		}
		catch (Error ex) {
			logger.log(Level.ERROR, "workqueue '" + this.name + "': the thread that sends batches to Redis failed", ex);
			throw ex;
		}
		finally {
			synchronized (this) {
				this.running = false;
				if (!this.adds.isEmpty() || !this.dones.isEmpty() || hasTakers()) {
					wakeSender();
				}
			}
		}
	}

	/**
	 * Waits until there is something to send, and takes it.
	 * @return the batch, or {@code null} when the queue is shutting down and nothing is
	 * left to send
	 */
	private @Nullable Batch next() throws InterruptedException {
		while (true) {
			long lingerNanos;
			synchronized (this) {
				long now = System.nanoTime();
				boolean retryDue = now - this.retryAt >= 0;
				boolean takersDue = hasTakers() && (this.hinted || now - this.pollAt >= 0);
				boolean ready = !this.adds.isEmpty() || (retryDue && (!this.dones.isEmpty() || takersDue));
				lingerNanos = (this.awaited.isEmpty()) ? 0 : this.lingerUntil - now;
				if (ready && lingerNanos <= 0) {
					return nextBatch();
				}
				if (ready) {
					this.lingeringSender = Thread.currentThread();
				}
				else {
					if (this.shuttingDown && this.adds.isEmpty() && this.dones.isEmpty()) {
						this.running = false;
						return null;
					}
					await(now, retryDue);
					continue;
				}
			}
			// Parked rather than waiting on the monitor: a timed wait lasts at least a
			// millisecond.
			LockSupport.parkNanos(this, lingerNanos);
			synchronized (this) {
				this.lingeringSender = null;
			}
			if (Thread.interrupted()) {
				throw new InterruptedException();
			}
		}
	}

	/** Waits for something to send: a request, a retry's time, the takers' poll. */
	private void await(long now, boolean retryDue) throws InterruptedException {
		long wait = Long.MAX_VALUE;
		if (!this.dones.isEmpty() || hasTakers()) {
			wait = this.retryAt - now;
		}
		if (retryDue && hasTakers()) {
			wait = this.pollAt - now;
		}
		if (wait == Long.MAX_VALUE) {
			wait();
		}
		else {
			TimeUnit.NANOSECONDS.timedWait(this, Math.max(1, wait));
		}
	}

	/** Takes what the next batch carries. Called under the monitor. */
	private Batch nextBatch() {
		this.hinted = false;
		this.awaited.clear();
		boolean retryDue = System.nanoTime() - this.retryAt >= 0;
		List<BatchRequest.Add> addBatch = takeUpTo(this.adds);
		List<BatchRequest.Done> doneBatch = retryDue ? takeUpTo(this.dones) : List.of();
		int wanted = retryDue ? Math.min(MOST_PER_BATCH, countTakers()) : 0;
		List<Taker> included = new ArrayList<>(wanted);
		for (Taker taker : this.takers) {
			if (included.size() == wanted) {
				break;
			}
			included.add(taker);
		}
		int shard = this.turn;
		if (wanted > 0) {
			this.turn = (this.turn + 1) % this.shards.count();
		}
		return new Batch(addBatch, doneBatch, included, shard);
	}

	private static <R> List<R> takeUpTo(ArrayDeque<R> pending) {
		List<R> taken = new ArrayList<>(Math.min(pending.size(), MOST_PER_BATCH));
		while (!pending.isEmpty() && taken.size() < MOST_PER_BATCH) {
			taken.add(pending.poll());
		}
		return taken;
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
	 * Sends the batch's script to each shard it concerns, all together, then reads them.
	 */
	private void run(Batch batch) {
		String now = this.now.get();
		long sent = System.nanoTime();
		List<ShardBatch> parts = batch.byShard(this.shards.count());
		List<Supplier<List<Object>>> replies = new ArrayList<>(parts.size());
		for (ShardBatch part : parts) {
			try {
				RedisLink.Sent<List<Object>> script = this.link.send(Script.BATCH, ScriptOutputType.MULTI,
						this.shards.keys(part.shard()).all(), part.args(now, this.fixedArgs));
				replies.add(script::reply);
			}
			catch (RuntimeException ex) {
				// Not connected, or the client was shut down: a failure like any other.
				replies.add(() -> {
					throw ex;
				});
			}
		}
		synchronized (this) {
			for (BatchRequest.Done done : batch.dones()) {
				if (done.lease.taker == done.requester) {
					this.awaited.add(done.requester);
				}
			}
		}
		// The takers learn that Redis had nothing for them only once every shard was
		// asked.
		boolean answered = true;
		for (int i = 0; i < parts.size(); i++) {
			ShardBatch part = parts.get(i);
			List<Object> reply;
			try {
				reply = replies.get(i).get();
			}
			catch (RuntimeException ex) {
				failed(part, (ex instanceof RedisException redis) ? redis : new RedisException(ex));
				continue;
			}
			this.outage.succeeded();
			synchronized (this) {
				this.backoffNanos = FIRST_BACKOFF_NANOS;
			}
			answered &= read(part, reply, sent);
		}
		if (answered) {
			batch.answered();
		}
		synchronized (this) {
			this.lingerUntil = System.nanoTime() + LINGER_NANOS;
		}
	}

	/**
	 * Completes a shard's adds and dones and hands out its grants.
	 * @return false if the shard had too few leases and another shard is to be asked
	 */
	private boolean read(ShardBatch part, List<Object> reply, long sent) {
		int index = 1;
		for (BatchRequest.Add add : part.adds()) {
			add.complete((Long) reply.get(index++) == 1, null);
		}
		for (BatchRequest.Done done : part.dones()) {
			done.complete((Long) reply.get(index++) == 1);
		}
		if (part.wanted() == 0) {
			return true;
		}
		List<Grant> unclaimed = new ArrayList<>();
		int granted = 0;
		for (; index + 4 < reply.size(); index += 5) {
			granted++;
			Grant grant = new Grant(part.shard(), (String) reply.get(index), (Long) reply.get(index + 1),
					(Long) reply.get(index + 2), (Long) reply.get(index + 3), ((Long) reply.get(index + 4)).intValue(),
					sent);
			if (!serve(grant)) {
				unclaimed.add(grant);
			}
		}
		if (!unclaimed.isEmpty()) {
			giveBack(unclaimed);
		}
		if (granted < part.wanted()) {
			return shardWasShort((Long) reply.get(0));
		}
		synchronized (this) {
			this.shortShards = 0;
			this.soonestEventMicros = -1;
		}
		return true;
	}

	/**
	 * A shard had fewer leases than asked for: the next shard is asked at once; once
	 * every shard in a row was short, the takers wait for a hint or the soonest event.
	 * @return whether every shard in a row was short
	 */
	private boolean shardWasShort(long nextEventMicros) {
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
			this.pollAt = System.nanoTime() + wait;
			this.shortShards = 0;
			this.soonestEventMicros = -1;
		}
		for (int shard = 0; shard < this.hints.size(); shard++) {
			int hinted = shard;
			this.hints.get(shard).listen((popped) -> hintEnded(hinted, popped));
		}
		return true;
	}

	/** Hands a grant to the first taker still waiting. */
	private synchronized boolean serve(Grant grant) {
		Taker taker;
		while ((taker = this.takers.poll()) != null) {
			if (taker.serve(grant)) {
				return true;
			}
		}
		return false;
	}

	/** Gives back grants that no taker waited for any more. */
	private void giveBack(List<Grant> grants) {
		try {
			this.returns.giveBack(grants.stream().map(Grant::encoded).toList(),
					grants.stream().map(Grant::token).toList());
		}
		catch (RuntimeException ex) {
			logger.log(Level.WARNING, "workqueue '" + this.name + "': could not give back " + grants.size()
					+ " leases that no thread waited for any more (" + ex + "); they come back when they expire");
		}
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
				notifyAll();
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
	 * Ends every request of a batch that could not be read: adds fail, dones report Redis
	 * unreachable (their leases expire), takers learn that nothing came. A request
	 * already completed keeps its outcome.
	 */
	private void abandon(Batch batch, RedisException ex) {
		for (BatchRequest.Add add : batch.adds()) {
			add.complete(false, ex);
		}
		for (BatchRequest.Done done : batch.dones()) {
			done.complete(null);
		}
		batch.answered();
	}

	private void failed(ShardBatch part, RedisException ex) {
		this.outage.failed(ex);
		for (BatchRequest.Add add : part.adds()) {
			add.complete(false, ex);
		}
		List<BatchRequest.Done> retry = new ArrayList<>();
		long now = System.nanoTime();
		for (BatchRequest.Done done : part.dones()) {
			if (now - done.giveUpAtNanos > 0 || done.requester.isInterrupted()) {
				done.complete(null);
			}
			else {
				retry.add(done);
			}
		}
		synchronized (this) {
			for (int i = retry.size() - 1; i >= 0; i--) {
				this.dones.addFirst(retry.get(i));
			}
			this.retryAt = now + this.backoffNanos;
			this.backoffNanos = Math.min(this.backoffNanos * 2, LONGEST_BACKOFF_NANOS);
		}
	}

}
