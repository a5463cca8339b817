package io.github.workqueue.redis.internal;

import java.util.List;

/**
 * What the parts of one {@link Batcher} share: the requests waiting for a batch, the
 * takers and their asks, the leases taken ahead, the flights, and the connection they go
 * over.
 *
 * <p>
 * <b>Concurrency.</b> The mutable state ({@code pending}, {@code asks}, {@code buffer}
 * and the shards' flights in {@code flights}) is guarded by {@code lock}, the batcher's
 * monitor, which is never held across I/O or a wait.
 */
record BatcherState(Object lock, String name, RedisLink link, Shards shards, PendingRequests pending, LeaseAsks asks,
		LeaseAheadBuffer buffer, Flights flights, LeaseReturns returns, List<WakeHints> hints, OutageLog outage,
		ReplicaAck ack) {
}
