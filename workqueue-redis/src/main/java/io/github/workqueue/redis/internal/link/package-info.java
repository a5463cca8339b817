/**
 * The wire to Redis, shared by every queue of a connection: the one Lettuce connection
 * ({@link io.github.workqueue.redis.internal.link.RedisLink}, with
 * {@link io.github.workqueue.redis.internal.link.SharedConnection} replacing it while it
 * is lost and {@link io.github.workqueue.redis.internal.link.Connector} opening
 * connections off the callers' threads), the scripts and how they reach a server
 * ({@link io.github.workqueue.redis.internal.link.Script}, the function library of
 * {@link io.github.workqueue.redis.internal.link.ScriptLibrary} with its
 * {@link io.github.workqueue.redis.internal.link.LuaIncludes},
 * {@link io.github.workqueue.redis.internal.link.ScriptCalls} for the second try,
 * {@link io.github.workqueue.redis.internal.link.SentScript} for a reply awaited within a
 * bound), a cluster's routing, the replicas' acknowledgement, the blocking pop that wakes
 * idle takers ({@link io.github.workqueue.redis.internal.link.WakeHints}) and the outage
 * log. Nothing here knows a queue's state: the queue's classes, the batches and those of
 * {@code internal.shared} call in, and it uses neither. Public only for their sake. The
 * Lua files sit beside these classes, under {@code scripts/} in the resources.
 */
package io.github.workqueue.redis.internal.link;
