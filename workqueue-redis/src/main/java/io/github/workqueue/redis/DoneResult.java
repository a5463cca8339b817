package io.github.workqueue.redis;

/**
 * What Redis said to a {@code done} of a lease.
 */
public enum DoneResult {

	/**
	 * The lease was live and is now ended (or it had been ended by an earlier done of the
	 * same lease, whose reply was lost): the item is not delivered again for this
	 * processing.
	 */
	ACCEPTED,

	/**
	 * The lease had expired: the item was, or will be, delivered again, and may have been
	 * processed twice. Counted in {@link RedisQueueStats#rejectedDones()}, except for a
	 * lease this instance gave back when its drain ended at shutdown, which is not asked
	 * of Redis nor counted.
	 */
	REJECTED,

	/**
	 * Redis could not be reached for a whole lease: the lease will expire and the item be
	 * delivered again.
	 */
	UNREACHABLE

}
