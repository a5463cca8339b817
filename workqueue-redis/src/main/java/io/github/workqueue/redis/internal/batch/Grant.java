package io.github.workqueue.redis.internal.batch;

/**
 * A lease that a batch was granted: the item, its lease's token and deadline, how long it
 * was queued, its priority, and when the batch was sent (the lease's liveness counts from
 * then). Immutable.
 *
 * <p>
 * Public only for the queue's classes one package up; not an API.
 */
public record Grant(int shard, String encoded, long token, long deadlineMicros, long queuedMicros, int priority,
		long sentNanos) {
}
