package io.github.workqueue.kubernetes.internal;

import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.extended.leaderelection.resourcelock.LeaderElectionRecord;
import io.fabric8.kubernetes.client.extended.leaderelection.resourcelock.Lock;

/**
 * A Lease lock that remembers when this replica's last acquisition or renewal that the
 * API server accepted was attempted, on this JVM's monotonic clock.
 * <p>
 * fabric8's elector reads its clock for the record's {@code renewTime} just before it
 * reads the Lease ({@link #get}), then writes the record ({@link #update} or
 * {@link #create}). Another replica may take the Lease once its own clock passes
 * {@code renewTime + leaseDuration}. So the time taken here at the read before a write
 * that succeeded is no earlier than the {@code renewTime} that write stored: counting the
 * lease from it never outlasts the Lease by more than the clocks' skew. A write that
 * failed or got no answer counts for nothing, though the server may have applied it: that
 * only makes this replica stop earlier.
 *
 * <p>
 * <b>Concurrency.</b> Thread-safe: the elector calls it from its own threads, one call at
 * a time; the times are volatile, read by the leadership watchdog.
 */
final class RenewalTrackingLock implements Lock {

	/** {@link #lastRenewalNanos} before any renewal. */
	static final long NEVER = Long.MIN_VALUE;

	private final Lock lease;

	/** When the read before the write in progress began. */
	private volatile long attemptNanos;

	private volatile long lastRenewalNanos = NEVER;

	RenewalTrackingLock(Lock lease) {
		this.lease = lease;
	}

	/**
	 * When the last write that made or kept this replica the holder began
	 * ({@link System#nanoTime()}), or {@link #NEVER}.
	 */
	long lastRenewalNanos() {
		return this.lastRenewalNanos;
	}

	@Override
	public LeaderElectionRecord get(KubernetesClient client) {
		this.attemptNanos = System.nanoTime();
		return this.lease.get(client);
	}

	@Override
	public void create(KubernetesClient client, LeaderElectionRecord record) {
		this.lease.create(client, record);
		accepted(record);
	}

	@Override
	public void update(KubernetesClient client, LeaderElectionRecord record) {
		this.lease.update(client, record);
		accepted(record);
	}

	private void accepted(LeaderElectionRecord record) {
		if (identity().equals(record.getHolderIdentity())) {
			this.lastRenewalNanos = this.attemptNanos;
		}
	}

	@Override
	public String identity() {
		return this.lease.identity();
	}

	@Override
	public String describe() {
		return this.lease.describe();
	}

}
