package io.github.workqueue.redis.internal.batch;

import org.jspecify.annotations.Nullable;

/**
 * A lease that a batch was granted: the item, its lease's token and deadline, how long it
 * was queued, its priority, when the batch was sent (the lease's liveness counts from
 * then), and the trace contexts of the adds it serves in their stored form (null for
 * none; {@code AddTraces.decode} reads it). Immutable.
 *
 * <p>
 * Public only for the queue's classes one package up; not an API.
 */
public record Grant(int shard, String encoded, long token, long deadlineMicros, long queuedMicros, int priority,
		long sentNanos, @Nullable String traces) {
}
