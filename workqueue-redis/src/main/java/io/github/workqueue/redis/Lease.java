package io.github.workqueue.redis;

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
 */
public interface Lease extends ItemLease {

}
