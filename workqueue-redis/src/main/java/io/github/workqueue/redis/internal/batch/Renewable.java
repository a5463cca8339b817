package io.github.workqueue.redis.internal.batch;

/**
 * A lease the {@link LeaseRenewer} keeps alive: one a worker holds ({@link HeldLease}) or
 * one taken ahead of the workers ({@link BufferedGrant}).
 *
 * <p>
 * Public only for the queue's classes one package up; not an API.
 */
public interface Renewable {

	/** The item, encoded. */
	String encoded();

	long token();

	/**
	 * Redis extended the lease.
	 * @param deadlineMicros its new deadline, in Redis's time
	 * @param sentNanos when the renewal was sent ({@link System#nanoTime()})
	 */
	void renewed(long deadlineMicros, long sentNanos);

	/**
	 * Redis said the lease is no longer this one (it expired).
	 * @return whether that is news, to be logged once
	 */
	boolean expired();

}
