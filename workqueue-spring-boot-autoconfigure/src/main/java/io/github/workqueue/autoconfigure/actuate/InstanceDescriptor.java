package io.github.workqueue.autoconfigure.actuate;

/**
 * An instance serving a Redis queue, from its last heartbeat.
 *
 * @param holder how it appears as a lease holder
 * @param inFlight the items its threads hold leases on
 * @param waitingInGet its threads waiting in {@code get}
 * @param leasedAhead the items it leased ahead of them
 * @param lastSeenSecondsAgo how long ago it wrote its heartbeat (it writes one a second),
 * on this instance's clock
 */
public record InstanceDescriptor(String holder, int inFlight, int waitingInGet, int leasedAhead,
		double lastSeenSecondsAgo) {

}
