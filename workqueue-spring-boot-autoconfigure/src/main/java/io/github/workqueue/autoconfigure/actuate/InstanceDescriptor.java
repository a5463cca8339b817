package io.github.workqueue.autoconfigure.actuate;

/**
 * An instance serving a Redis queue, from its last heartbeat.
 *
 * @param holder how it appears as a lease holder
 * @param inFlight the items its threads hold leases on; for an instance not seen for
 * {@link #NOT_SEEN_SECONDS}, the leases Redis still holds for it (none once they expired
 * and their items were delivered again)
 * @param waitingInGet its threads waiting in {@code get} (0 for one not seen)
 * @param leasedAhead the items it leased ahead of them (0 for one not seen: its leases
 * ahead are counted in {@code inFlight})
 * @param paused whether its workers are paused or held, taking no items
 * @param lastSeenSecondsAgo how long ago it wrote its heartbeat (it writes one a second),
 * on this instance's clock
 * @param notSeen whether that is longer than {@link #NOT_SEEN_SECONDS}: the instance is
 * taken for stopped or cut off (the dashboard reads this rather than a bound of its own)
 */
public record InstanceDescriptor(String holder, int inFlight, int waitingInGet, int leasedAhead, boolean paused,
		double lastSeenSecondsAgo, boolean notSeen) {

	/**
	 * An instance whose heartbeat (written every second) is older than this is taken for
	 * stopped or cut off.
	 */
	public static final int NOT_SEEN_SECONDS = 5;

}
