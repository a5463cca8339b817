package io.github.workqueue.autoconfigure.actuate;

import java.util.List;
import java.util.Map;

import org.jspecify.annotations.Nullable;

/**
 * A queue shared on Redis, as Redis sees it: queue-wide figures, every instance's leases
 * and the parked items. While Redis cannot be reached, the last figures read (none if it
 * never was), with why and since when; the figures are then {@code null} if none were
 * read before.
 *
 * @param instance how this instance appears as a lease holder
 * @param shards how many shards the queue is spread over
 * @param queued items ready and not taken
 * @param waiting items waiting for their ready time
 * @param inFlight items under a lease, on any instance
 * @param redeliveries items delivered again after their lease expired
 * @param rejectedDones {@code done} calls refused because the lease had expired
 * @param leases the items under a lease, with their holders
 * @param parked parked items (as stored) with the reason
 * @param unreachable why the figures could not be read now, or {@code null} if they were
 * @param unreachableSinceMillis since when (epoch milliseconds) they could not be read,
 * or {@code null}
 * @param pausedEverywhere the queue-wide pause, or {@code null} if the queue is not
 * paused on every instance
 * @param instances the instances serving the queue, from their heartbeats
 */
public record SharedDescriptor(@Nullable String instance, int shards, @Nullable Long queued, @Nullable Long waiting,
		@Nullable Long inFlight, @Nullable Long redeliveries, @Nullable Long rejectedDones,
		List<LeaseDescriptor> leases, Map<String, String> parked, @Nullable String unreachable,
		@Nullable Long unreachableSinceMillis, @Nullable PauseDescriptor pausedEverywhere,
		List<InstanceDescriptor> instances) {

}
