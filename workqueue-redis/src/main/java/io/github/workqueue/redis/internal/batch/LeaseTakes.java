package io.github.workqueue.redis.internal.batch;

import java.util.ArrayList;
import java.util.List;

import org.jspecify.annotations.Nullable;

import io.github.workqueue.redis.internal.link.RedisLink;
import io.github.workqueue.redis.internal.link.WakeHints;

/**
 * The takers' side of a {@link Batcher}: the threads waiting in {@code get} for a lease,
 * and the leases taken ahead of them.
 *
 * <p>
 * A thread waiting in {@link #take} holds a {@link Taker}. A lease is granted for a taker
 * that waits when the batch is made, or ahead of the takers (prefetch): a batch that asks
 * for leases asks for up to {@code prefetch} more than the takers waiting, less those
 * buffered and those asked for already; a batch asks for them alone once the buffer is
 * half empty. A grant goes to the first taker still waiting when the reply comes, else to
 * the buffer while it holds fewer than {@code prefetch}, and is given back at once
 * otherwise (its item returns to the head of the queue, not counted as a redelivery). A
 * taker takes the buffer's oldest grant without waiting; takers wait only while the
 * buffer is empty. Buffered leases are renewed with the held ones ({@link #buffered()});
 * one whose renewal failed for half a lease, or that Redis says expired, is given back
 * (for what it is worth) rather than handed out. The buffer is given back, in order, at
 * shutdown and by {@link #giveBackLeasedAhead()}, and a lease that waited a whole lease
 * duration untaken at the renewer's next beat. Leases are asked for ahead only with the
 * takers' or after a take, so an instance that only adds leases nothing. While takers
 * wait and Redis has nothing for them, one {@code BLPOP} per instance and shard
 * ({@link WakeHints}) waits for a hint, and the batch runs again at the latest when the
 * next waiting item or lease deadline is due, or after {@code longestBlock}.
 *
 * <p>
 * <b>Concurrency.</b> Thread-safe: the takers and the buffer are {@link BatchState}'s,
 * under its monitor; each {@link Taker} is guarded by its own; this class takes no lock.
 *
 * <p>
 * Public only for the queue's classes one package up; not an API.
 */
public final class LeaseTakes {

	private final BatchState state;

	private final LeaseReturns returns;

	private final RedisLink link;

	/**
	 * Per thread, when its last {@link #take} returned a grant
	 * ({@link System#nanoTime()}, in a one-element array): how long a worker works
	 * between two takes, for the buffer's sizing.
	 */
	private final ThreadLocal<long[]> lastTaken = ThreadLocal.withInitial(() -> new long[] { Long.MIN_VALUE });

	LeaseTakes(BatchState state, LeaseReturns returns, RedisLink link) {
		this.state = state;
		this.returns = returns;
		this.link = link;
	}

	/**
	 * Waits for a lease granted to the calling thread.
	 * @return the grant, or {@code null} if none came within the timeout (but not before
	 * one batch asked Redis for it, or {@link RedisLink#requestBoundNanos()} passed) or
	 * the queue is shutting down
	 * @throws InterruptedException if interrupted while waiting: an interrupted take
	 * takes nothing, and a grant that came as the interrupt did goes to another waiting
	 * thread, to the buffer, or back to the queue's head (not counted as a redelivery),
	 * as if it had never come (a worker container's pause must not start an item)
	 */
	public @Nullable Grant take(long timeoutNanos) throws InterruptedException {
		Taker taker = new Taker();
		List<BufferedGrant> stale = new ArrayList<>(0);
		long[] lastTaken = this.lastTaken.get();
		BatchState.Take take = this.state.take(taker, lastTaken[0], stale);
		if (take.shutDown()) {
			return null;
		}
		Grant ready = take.ready();
		if (!stale.isEmpty()) {
			this.returns.giveBackUntaken(stale.stream().map((buffered) -> buffered.grant).toList());
		}
		if (ready != null) {
			lastTaken[0] = System.nanoTime();
			return ready;
		}
		long triedBound = Math.max(timeoutNanos, this.link.requestBoundNanos());
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
		if (taker.grant != null) {
			lastTaken[0] = System.nanoTime();
		}
		return taker.grant;
	}

	/** A grant its taker did not take goes to another taker, the buffer, or Redis. */
	private void handBack(@Nullable Grant grant) {
		if (grant != null) {
			List<Grant> unclaimed;
			List<Taker> served = new ArrayList<>(1);
			try {
				unclaimed = this.state.serve(List.of(grant), served);
			}
			finally {
				served.forEach(Taker::wake);
			}
			this.returns.giveBackUntaken(unclaimed);
		}
	}

	/** How many leases taken ahead wait in the buffer now. */
	public int leasedAhead() {
		return this.state.leasedAhead();
	}

	/** How many threads wait in {@code take} now. */
	public int waitingTakers() {
		return this.state.waitingTakers();
	}

	/**
	 * The leases taken ahead that wait in the buffer, for the renewer, after giving back
	 * those that waited a whole lease duration: no thread took them for that long (the
	 * workers are busy or stopped asking), so other instances may.
	 */
	public List<BufferedGrant> buffered() {
		BatchState.Buffered buffered = this.state.buffered();
		this.returns.giveBackUntaken(buffered.overdue());
		return buffered.waiting();
	}

	/**
	 * Gives back the leases taken ahead of the takers, in order, and asks for none ahead
	 * until a thread takes again (a pause).
	 * @return how many were given back
	 */
	public int giveBackLeasedAhead() {
		List<Grant> grants = this.state.drainBuffer(true);
		this.returns.giveBackUntaken(grants);
		return grants.size();
	}

	/**
	 * Takes an item's lease out of the leases taken ahead, if one is there: no thread is
	 * handed it after this returns. The caller ends the lease ({@code remove}).
	 * @return the lease, or {@code null} if none was taken ahead for the item
	 */
	public @Nullable Grant takeLeasedAhead(String encoded) {
		return this.state.takeLeasedAhead(encoded);
	}

	/**
	 * Gives back a lease taken out of the buffer ({@link #takeLeasedAhead}) that its
	 * caller could not end, without waiting.
	 */
	public void giveBack(Grant leasedAhead) {
		this.returns.giveBackUntaken(List.of(leasedAhead));
	}

}
