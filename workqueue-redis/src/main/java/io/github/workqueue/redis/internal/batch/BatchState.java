package io.github.workqueue.redis.internal.batch;

import java.util.BitSet;
import java.util.List;
import java.util.concurrent.TimeUnit;

import org.jspecify.annotations.Nullable;

/**
 * What one {@link Batcher}'s callers, its sender ({@link BatchSender}) and the reading of
 * its replies ({@link BatchReplies}) share, with the one monitor that guards it: every
 * step that reads or changes it is a method here, so that the callers, the sender and the
 * replies take no lock of their own for it.
 *
 * <p>
 * <b>Guarded by this object's monitor</b>, which is never held across I/O or a wait:
 * <ul>
 * <li>{@code pending}: per shard, the adds and dones waiting for its next part, and its
 * backoff after a failure;</li>
 * <li>{@code asks}: the threads waiting in {@code take} ({@link Taker}s) and the asks for
 * their leases, shard by shard;</li>
 * <li>{@code buffer}: the leases taken ahead of the takers, and its sizing;</li>
 * <li>{@code sentParts}: per shard, the parts on their way (the landed sent parts are a
 * concurrent queue, handed over without the monitor: {@link #landed});</li>
 * <li>{@code wakes}: whether a sender thread runs (or was started), and its linger for
 * the threads whose dones the last batch answered ({@link SenderWakes});</li>
 * <li>{@code passOn}: the shards whose hint found no taker here, for the sender to pass
 * on to another instance.</li>
 * </ul>
 * What the next batch carries, and how long the sender may idle, is read from this state
 * by a {@link BatchPlanner}, under the monitor. <b>Invariants</b>, kept by the methods
 * here:
 * <ul>
 * <li>a shard has at most {@link SentParts#MOST_PER_SHARD} parts on their way; while it
 * has that many its next part gathers in {@code pending}, and is made only once one of
 * them was read; a part is made only by the sender, and the parts of a shard are sent in
 * the order made, on one connection, so Redis runs them in that order;</li>
 * <li>a request leaves {@code pending} only into a part that is sent (or failed to be
 * sent, which is a landing like any other), and returns to it only as a retry of a part
 * that failed;</li>
 * <li>a grant served here goes to exactly one of: a taker that claimed it, the buffer, or
 * the list of grants returned to the caller, who gives them back to Redis;</li>
 * <li>while anything is pending, flying or asked for, a sender runs: a request starts one
 * if none does, and a sender that ends starts another if something is left
 * ({@link #senderEnded});</li>
 * <li>the sender is unparked for anything it would act on while parked: a request for a
 * shard that may have one more part on its way, a taker while a shard may, a landing, the
 * arrival of the last awaited thread, a hint (taken here or to be passed on).</li>
 * </ul>
 * A taker served here is woken by the caller once the monitor is left ({@link Taker#wake}
 * on the served list), so that the woken thread, which asks for the monitor at once, does
 * not find it held.
 */
final class BatchState {

	/** A thread away longer than this between takes was idle, not working. */
	private static final long LONGEST_WORK_NANOS = TimeUnit.SECONDS.toNanos(1);

	private final PendingRequests pending;

	private final LeaseAsks asks;

	private final LeaseAheadBuffer buffer;

	private final SentParts sentParts;

	/**
	 * The shards whose hint found no taker waiting here: the sender pushes each on to the
	 * shard's wake-up list, from its own thread (a hint ends on a Lettuce event loop,
	 * where no write may wait for Lettuce's writer lock, nor a pool's lock).
	 */
	private final BitSet passOn = new BitSet();

	/** Starts and wakes the sender, and keeps its linger. */
	private final SenderWakes wakes;

	/** Reads and takes from the state above; called under this monitor only. */
	private final BatchPlanner planner;

	BatchState(PendingRequests pending, LeaseAsks asks, LeaseAheadBuffer buffer, SentParts sentParts) {
		this.pending = pending;
		this.asks = asks;
		this.buffer = buffer;
		this.sentParts = sentParts;
		this.planner = new BatchPlanner(pending, asks, buffer, sentParts);
		this.wakes = new SenderWakes(sentParts);
	}

	/** Names the sender this state starts and wakes. */
	synchronized void attach(SenderWakes.Sender sender) {
		this.wakes.attach(sender);
	}

	// The callers' steps (Batcher).

	/**
	 * Queues an add for its shard's next part, after the calling thread's done without
	 * waiting ({@code deferred}, or {@code null}).
	 */
	synchronized void queueAdd(BatchRequest.Add request, BatchRequest.@Nullable Done deferred) {
		this.pending.add(request, deferred);
		this.wakes.arrived();
		this.wakes.wakeFor(request.shard);
	}

	/** Queues adds, in order, as {@link #queueAdd} does each. */
	synchronized void queueAdds(List<BatchRequest.Add> requests, BatchRequest.@Nullable Done deferred) {
		for (BatchRequest.Add request : requests) {
			this.pending.add(request, deferred);
		}
		this.wakes.arrived();
		this.wakes.wakeSender();
	}

	/** Queues a done for its shard's next part. */
	synchronized void queueDone(BatchRequest.Done request) {
		this.pending.done(request);
		this.wakes.arrived();
		this.wakes.wakeFor(request.shard);
	}

	/** What {@link #take} found. */
	record Take(boolean shutDown, @Nullable Grant ready) {
	}

	/**
	 * A thread comes to take: the buffer's oldest lease that can be handed out, or else
	 * the taker waits for a grant (and the sender asks for it). The time is read here,
	 * under the monitor, so that it is never earlier than a change it sees (a lease
	 * buffered meanwhile).
	 * @param lastTakenNanos when the thread's previous take returned an item
	 * ({@link System#nanoTime()}), or {@code Long.MIN_VALUE} if none did
	 * @param stale where the buffered leases that can no longer be handed out go, for the
	 * caller to give back
	 */
	synchronized Take take(Taker taker, long lastTakenNanos, List<BufferedGrant> stale) {
		if (this.asks.isShutDown()) {
			return new Take(true, null);
		}
		this.wakes.arrived();
		long now = System.nanoTime();
		// How long the thread was away since its previous item; -1 if it had none lately.
		long gapNanos = (lastTakenNanos == Long.MIN_VALUE || now - lastTakenNanos > LONGEST_WORK_NANOS) ? -1
				: now - lastTakenNanos;
		Grant ready = this.buffer.take(now, gapNanos, stale);
		if (ready == null) {
			this.asks.waitFor(taker, now);
			this.wakes.wakeForLeases();
		}
		else if (this.buffer.tookOne(now, this.asks.isShutDown())) {
			this.wakes.wakeForLeases();
		}
		return new Take(false, ready);
	}

	/**
	 * Serves grants to the takers still waiting, in order, then to the buffer while it
	 * has room.
	 * @param served where the takers served go, for the caller to wake
	 * @return the grants nobody took, for the caller to give back
	 */
	synchronized List<Grant> serve(List<Grant> grants, List<Taker> served) {
		return this.asks.serve(grants, this.buffer, served);
	}

	synchronized int leasedAhead() {
		return this.buffer.size();
	}

	synchronized int waitingTakers() {
		return this.asks.count();
	}

	/**
	 * The buffer for the renewer, with the leases that waited a whole lease taken out.
	 */
	record Buffered(List<Grant> overdue, List<BufferedGrant> waiting) {
	}

	synchronized Buffered buffered() {
		List<Grant> overdue = this.buffer.takeOverdue(System.nanoTime());
		return new Buffered(overdue, this.buffer.waiting());
	}

	/**
	 * Empties the buffer, in order, for the caller to give back; with {@code suspend} (a
	 * pause) none is asked for ahead until the next take.
	 */
	synchronized List<Grant> drainBuffer(boolean suspend) {
		return this.buffer.drain(suspend);
	}

	/** Takes an item's lease out of the buffer, or returns {@code null}. */
	synchronized @Nullable Grant takeLeasedAhead(String encoded) {
		return this.buffer.remove(encoded);
	}

	/**
	 * Releases the takers and stops granting leases; the adds and dones asked already are
	 * still sent.
	 * @return the buffer, for the caller to give back
	 */
	synchronized List<Grant> shutDown() {
		this.asks.shutDown();
		List<Grant> grants = this.buffer.drain(false);
		this.wakes.unpark();
		return grants;
	}

	// The sender's steps (BatchSender).

	/**
	 * What the sender does next: pass hints on (the shards in {@code passOn}, first),
	 * then read the sent parts that landed, send a batch, park (for {@code parkNanos},
	 * {@code Long.MAX_VALUE} for no limit), or end.
	 */
	record SenderStep(int[] passOn, List<SentPart> landed, @Nullable List<BatchPlanner.Part> batch, long parkNanos,
			boolean end) {

		private static final int[] NONE = new int[0];

		static final SenderStep END = new SenderStep(NONE, List.of(), null, 0, true);

	}

	/**
	 * Decides the sender's next step: the landed sent parts first (each is handed over
	 * once, and stays on its way until it is read), else a batch if one would carry
	 * anything and no linger holds it, else a park until there is something to do, else
	 * the end, when the batcher is shutting down and nothing is left.
	 */
	synchronized SenderStep nextStep() {
		long now = System.nanoTime();
		this.sentParts.timeOutOverdue(now);
		int[] hints = SenderStep.NONE;
		if (!this.passOn.isEmpty()) {
			hints = this.passOn.stream().toArray();
			this.passOn.clear();
		}
		if (this.sentParts.anyLanded()) {
			return new SenderStep(hints, this.sentParts.takeLanded(), null, 0, false);
		}
		boolean ready = this.planner.sendable(now);
		// No linger while a caller waits for an add and takers wait already: their asks
		// ride in this batch, and a linger would hold that caller.
		boolean noLinger = !this.wakes.awaitsAny() || (this.pending.hasAwaitedAdds() && this.asks.any());
		long lingerNanos = this.wakes.lingerNanos(now, ready, noLinger);
		if (ready) {
			return (lingerNanos > 0) ? new SenderStep(hints, List.of(), null, lingerNanos, false)
					: new SenderStep(hints, List.of(), nextBatch(now), 0, false);
		}
		if (this.asks.isShutDown() && this.pending.isEmpty() && !this.sentParts.any()) {
			// Hints left to pass on are dropped: a hint is never state.
			this.wakes.senderEnded();
			return SenderStep.END;
		}
		return new SenderStep(hints, List.of(), null, this.planner.idleNanos(now), false);
	}

	/** A reply was read: the next batch lingers for the threads it answered. */
	synchronized void lingerAfterReply() {
		this.wakes.lingerAfterReply();
	}

	/**
	 * The parts of a batch went (or failed to go): they are on their way now.
	 */
	synchronized void sent(List<SentPart> sent) {
		for (SentPart sentPart : sent) {
			this.sentParts.sent(sentPart);
			this.asks.sent(sentPart);
			for (BatchRequest.Done done : sentPart.part.dones()) {
				if (done.byTaker) {
					this.wakes.awaits(done.requester);
				}
			}
		}
	}

	/**
	 * The sender thread ended (normally, or by a failure): another starts if anything is
	 * left to send or to read.
	 */
	synchronized void senderEnded() {
		this.wakes.senderEnded();
		if (!this.pending.isEmpty() || this.sentParts.any() || this.asks.any()) {
			this.wakes.wakeSender();
		}
	}

	/** Whether a sender runs, or was started ({@code running}). */
	synchronized boolean senderRunning() {
		return this.wakes.senderRunning();
	}

	// The replies' steps (BatchReplies).

	/**
	 * A sent part's reply came or it failed: handed to the sender without the monitor (a
	 * Lettuce thread, or the sender's own for a reply already there).
	 */
	void landed(SentPart sentPart) {
		if (this.sentParts.landed(sentPart)) {
			this.wakes.unpark();
		}
	}

	/** The sender reads a sent part that landed: it is no longer on its way. */
	synchronized void reading(SentPart sentPart) {
		this.sentParts.read(sentPart);
		this.asks.landed(sentPart);
	}

	/** A part went again (a second try): on its way again, in the slot it left. */
	synchronized void sentAgain(SentPart second) {
		this.sentParts.sentAgain(second);
		this.asks.sent(second);
	}

	/** A sent part's leases beyond its takers' were answered (granted or not). */
	synchronized void leasesAheadAnswered(SentPart sentPart) {
		this.buffer.answered(sentPart.part.wanted() - sentPart.takers.size());
	}

	/** A shard answered: its backoff ends, and the round trip counts for the sizing. */
	synchronized void shardAnswered(SentPart sentPart) {
		long now = System.nanoTime();
		this.pending.answered(sentPart.shard(), now);
		this.buffer.roundTrip(now - sentPart.sentNanos);
	}

	/**
	 * What serving a sent part's grants did: the grants nobody took (for the caller to
	 * give back), and whether every shard in a row had too few for the takers (then each
	 * shard's hint is listened for).
	 */
	record Served(List<Grant> unclaimed, boolean allShort) {
	}

	/**
	 * Serves a sent part's grants ({@link #serve}) and counts how the shard answered the
	 * takers' ask: short for each of the sent part's takers if it granted fewer than
	 * them.
	 * @param served where the takers served go, for the caller to wake
	 */
	synchronized Served serveGrants(SentPart sentPart, List<Grant> grants, long nextEventMicros, int shardCount,
			List<Taker> served) {
		List<Grant> unclaimed = this.asks.serve(grants, this.buffer, served);
		int granted = grants.size();
		long now = System.nanoTime();
		if (granted < sentPart.takers.size()) {
			for (Taker taker : sentPart.takers) {
				taker.answeredShort(sentPart.shard(), shardCount);
			}
			return new Served(unclaimed, this.asks.shardWasShort(nextEventMicros, sentPart.sentNanos, now));
		}
		this.asks.shardHadEnough();
		this.buffer.shardAnswered(granted < sentPart.part.wanted(), now);
		return new Served(unclaimed, false);
	}

	/**
	 * A hint came for a shard: the sender asks again if takers waited for one, or else
	 * passes the hint on to another instance (unless this one is shutting down).
	 */
	synchronized void hinted(int shard) {
		if (this.asks.hinted(shard)) {
			this.wakes.unpark();
		}
		else if (!this.asks.isShutDown()) {
			this.passOn.set(shard);
			this.wakes.wakeSender();
		}
	}

	/** A failed part's dones wait for their shard's next try, after its backoff. */
	synchronized void retryLater(int shard, List<BatchRequest.Done> retry, long now) {
		this.pending.retryLater(shard, retry, now);
	}

	/**
	 * Takes what the next batch carries; the threads it lingered for are no longer
	 * awaited.
	 */
	private List<BatchPlanner.Part> nextBatch(long now) {
		this.wakes.batchMade();
		return this.planner.nextBatch(now);
	}

}
