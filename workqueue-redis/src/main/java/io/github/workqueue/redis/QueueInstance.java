package io.github.workqueue.redis;

import java.time.Instant;

/**
 * An instance serving a Redis queue, as its last heartbeat described it (every instance
 * writes one a second while it runs, and removes it at shutdown).
 *
 * @param holder how the instance appears as a lease holder
 * @param inFlight the items its threads hold leases on
 * @param waitingInGet its threads waiting in {@code get}
 * @param leasedAhead the items it leased ahead of them
 * @param paused whether its worker container is paused or held, taking no items (see
 * {@link io.github.workqueue.core.LeasingAhead#workersPaused(boolean)})
 * @param lastSeen when it last wrote its heartbeat, on its own clock
 */
public record QueueInstance(String holder, int inFlight, int waitingInGet, int leasedAhead, boolean paused,
		Instant lastSeen) {

}
