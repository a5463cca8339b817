/**
 * A queue shared on Redis, behind {@link io.github.workqueue.redis.RedisQueue}:
 * {@link io.github.workqueue.redis.internal.DefaultRedisQueue} answers the interface with
 * the parts {@code RedisQueueParts} wires: the adds ({@code RedisAdds},
 * {@code ScriptedAdds}), the leases this instance holds ({@code HeldLease},
 * {@code HeldLeases}, {@code LeaseHolding} for get and done, {@code LeaseRenewer}), the
 * dead letters' handling, the stall watch and the shutdown. It uses three packages below
 * it, each using only those below itself, never one above:
 * {@link io.github.workqueue.redis.internal.batch} (the batches that carry adds, dones
 * and lease asks to every shard in one script run, and the leases taken ahead),
 * {@link io.github.workqueue.redis.internal.shared} (what all instances share on Redis
 * outside the batches: keys and shards, views, pauses, dead letters, heartbeats, failure
 * counts) and {@link io.github.workqueue.redis.internal.link} (the wire to Redis). Their
 * public classes are public only for the packages above them. docs/code-map.md walks an
 * add through these classes.
 */
package io.github.workqueue.redis.internal;
