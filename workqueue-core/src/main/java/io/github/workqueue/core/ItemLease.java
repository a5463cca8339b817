package io.github.workqueue.core;

import java.time.Instant;

/**
 * A processing's lease on its item, in a queue shared by several processes (the Redis
 * queue): the fencing token of the grant, its deadline and whether it is still live. Pass
 * the token to a store that fences writes, and ask {@link #isLive()} before a write that
 * must not race another holder.
 */
public interface ItemLease {

	/**
	 * Returns the fencing token of the grant; tokens of one item only grow.
	 * @return the token
	 */
	long token();

	/**
	 * Returns the deadline of the last grant or renewal, on the shared store's clock.
	 * @return the deadline
	 */
	Instant expiresAt();

	/**
	 * Tells whether a renewal found the lease expired or held by another processing.
	 * @return true once lost; a lost lease never becomes live again
	 */
	boolean lost();

	/**
	 * Tells whether the lease is still live, judged on this process's monotonic clock.
	 * @return true while this processing may still assume it is the item's only holder
	 */
	boolean isLive();

}
