package io.github.workqueue.redis;

import java.time.Instant;

/**
 * The lease under which this instance processes an item: granted by {@code get}, renewed
 * while the item is in flight, ended by {@code done}. While a lease is live no other
 * instance holds the item; once it has expired (this instance stalled or lost Redis for
 * longer than the lease) the item may be processing elsewhere, and this instance's
 * {@code done} is rejected.
 *
 * @param token the fencing token, unique per grant and increasing
 * @param expiresAt the deadline of the last grant or renewal, on Redis's clock
 * @param lost whether a renewal found the lease expired or taken over
 */
public record Lease(long token, Instant expiresAt, boolean lost) {

}
