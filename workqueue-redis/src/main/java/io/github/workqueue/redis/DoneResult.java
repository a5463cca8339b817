package io.github.workqueue.redis;

/**
 * What became of a {@code done} of a lease.
 */
public enum DoneResult {

	/**
	 * The lease was live and is now ended (or it had been ended by an earlier attempt of
	 * the same done, whose reply was lost): the item is not delivered again for this
	 * processing. Not counted.
	 */
	ACCEPTED,

	/**
	 * The lease had expired: the item was, or will be, delivered again, and may have been
	 * processed twice. Counted once in {@link RedisQueueStats#rejectedDones()}, however
	 * many attempts of the done reached Redis; not counted for a lease this instance gave
	 * back when its drain ended at shutdown, which is not asked of Redis.
	 */
	REJECTED,

	/**
	 * No answer came in time: the done may or may not have been applied, and neither
	 * redelivery nor its absence can be assumed. Returned by
	 * {@link RedisQueue#done(Lease)} when no answer came within twice the client's
	 * connect timeout and twice its command timeout (a done whose caller is interrupted
	 * stops waiting sooner); the instance keeps asking Redis until it answers, for up to
	 * two lease durations, and then reports the outcome once, through
	 * {@link Lease#outcome()}, a log line, the {@link RedisQueueBuilder#lateDoneListener
	 * late-done listener} and the {@code workqueue_unanswered_dones_total} counter. As
	 * that final outcome it means that Redis never answered while it could still tell (if
	 * the done was not applied, the lease expired and the item was delivered again).
	 */
	NO_ANSWER

}
