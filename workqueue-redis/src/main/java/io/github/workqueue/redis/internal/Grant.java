package io.github.workqueue.redis.internal;

/**
 * A lease that a batch was granted: the item, its lease's token and deadline, how long it
 * was queued, its priority, and when the batch was sent (the lease's liveness counts from
 * then). Immutable.
 */
record Grant(int shard, String encoded, long token, long deadlineMicros, long queuedMicros, int priority,
		long sentNanos) {
}
