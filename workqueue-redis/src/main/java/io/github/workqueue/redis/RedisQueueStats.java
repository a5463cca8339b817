package io.github.workqueue.redis;

/**
 * Queue-wide figures read from Redis in one atomic step: they count every instance's
 * items.
 *
 * @param queued items ready and not taken
 * @param waiting items waiting for their ready time
 * @param inFlight items under a lease
 * @param parked items set aside (their leases expired too often, or they could not be
 * decoded)
 * @param redeliveries items put back because their lease expired, since the queue was
 * created
 * @param rejectedDones {@code done} calls refused because the caller's lease had expired
 * @param givenUp items kept as dead letters because a worker gave them up (the queue's
 * dead letters are these and the parked ones)
 */
public record RedisQueueStats(long queued, long waiting, long inFlight, long parked, long redeliveries,
		long rejectedDones, long givenUp) {

	/**
	 * The queue's dead letters: given up and parked.
	 * @return their number
	 */
	public long deadLetters() {
		return this.givenUp + this.parked;
	}

}
