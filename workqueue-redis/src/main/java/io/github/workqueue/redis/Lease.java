package io.github.workqueue.redis;

import java.util.concurrent.CompletionStage;

import io.github.workqueue.core.ItemLease;

/**
 * One processing's lease on an item: granted by {@code get} to the thread that took the
 * item, renewed by this instance while that thread lives and the lease is not done, ended
 * by {@code done}. While the lease is live no other processing, on any instance, holds
 * the item; once it has expired (this instance stalled, or lost Redis, for longer than
 * the lease) the item may be processing elsewhere, and this lease's {@code done} is
 * rejected. A lease is a live view: {@link #lost()} and {@link #isLive()} change as
 * renewals are answered.
 *
 * <p>
 * <b>Fencing tokens.</b> Every grant on a queue gets a token greater than every token
 * granted before on it, so a token never repeats or decreases for an item, even after
 * Redis lost its last acknowledged writes (a crash under {@code appendfsync everysec}): a
 * token is at least the grant's time on Redis's clock in microseconds, which a restart
 * cannot take back. A store written by workers can therefore refuse a write whose token
 * is lower than the last one it accepted for the item.
 *
 * <p>
 * <b>Liveness.</b> {@link #isLive()} is judged on this instance's monotonic clock
 * ({@link System#nanoTime()}): live until a lease duration, less a tenth as a margin, has
 * passed since the last grant or renewal request that Redis answered was sent. It never
 * compares Redis's time with this instance's wall clock, which may be skewed.
 * {@link #expiresAt()} is Redis's deadline, on Redis's clock, for display.
 *
 * <p>
 * <b>Outcome.</b> {@link #outcome()} completes once the first {@code done} of the lease
 * has a final outcome: at once when Redis answered in time, later when the done returned
 * {@link DoneResult#NO_ANSWER} (see {@link LateDoneOutcome}).
 */
public interface Lease extends ItemLease {

	/**
	 * Returns the final outcome of this lease's first {@code done}: {@code ACCEPTED} or
	 * {@code REJECTED} once Redis answered (however late), {@code NO_ANSWER} if it never
	 * answered while it could still tell (two lease durations after the done), or
	 * {@code REJECTED} for a lease this instance gave back at shutdown. It never
	 * completes for a lease that no done ended. Dependent actions run on the thread that
	 * completes it: the done's caller, or a helper thread for an outcome that came late,
	 * after the late outcome was logged, counted and given to the late-done listener.
	 * @return the outcome, read-only
	 */
	CompletionStage<DoneResult> outcome();

}
