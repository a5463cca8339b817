package io.github.workqueue.redis;

import java.time.Instant;

/**
 * An item under a lease, as Redis records it.
 *
 * @param item the item as stored (its encoding)
 * @param token the lease's fencing token
 * @param holder the instance holding the lease
 * @param grantedAt when the lease was granted, on Redis's clock
 * @param expiresAt when the lease expires unless renewed, on Redis's clock
 * @param observedAt when Redis read this, on its clock (to tell ages without an
 * instance's clock)
 */
public record InFlightItem(String item, long token, String holder, Instant grantedAt, Instant expiresAt,
		Instant observedAt) {

}
