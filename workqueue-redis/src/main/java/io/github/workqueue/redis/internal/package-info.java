/**
 * A queue shared on Redis, behind {@link io.github.workqueue.redis.RedisQueue}:
 * {@link io.github.workqueue.redis.internal.DefaultRedisQueue} wires the parts; the adds
 * ({@code RedisAdds}, {@code ScriptedAdds}); the batches that carry adds, dones and lease
 * asks to every shard in one script run ({@code Batcher} on the callers' side,
 * {@code BatchState} the one owner of what callers, sender and replies share,
 * {@code BatchSender} the one thread that sends, {@code BatchReplies}); the leases
 * ({@code Taker}, {@code LeaseAsks}, {@code LeaseAheadBuffer}, {@code LeaseHolding},
 * {@code LeaseRenewer}, {@code LeaseReturns}); the dead letters' handling and the
 * shutdown. It uses two packages below it, which never use it:
 * {@link io.github.workqueue.redis.internal.shared} (what all instances share on Redis
 * outside the batches: keys and shards, views, pauses, dead letters, heartbeats, failure
 * counts) and {@link io.github.workqueue.redis.internal.link} (the wire to Redis). The
 * classes of both are public only for this package's sake. docs/code-map.md walks an add
 * through these classes.
 */
package io.github.workqueue.redis.internal;
