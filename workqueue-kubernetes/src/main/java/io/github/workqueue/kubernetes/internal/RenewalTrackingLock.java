package io.github.workqueue.kubernetes.internal;

import java.time.Duration;
import java.util.function.LongSupplier;

import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.extended.leaderelection.resourcelock.LeaderElectionRecord;
import io.fabric8.kubernetes.client.extended.leaderelection.resourcelock.Lock;

/**
 * A Lease lock that judges each of this replica's acquisitions and renewals on this JVM's
 * monotonic clock, from when the attempt began, and remembers when the last one the API
 * server accepted in time began.
 * <p>
 * fabric8's elector reads its clock for the record's {@code renewTime} just before it
 * reads the Lease ({@link #get}), then writes the record ({@link #update} or
 * {@link #create}). Another replica may take the Lease once its own clock passes
 * {@code renewTime + leaseDuration}. So the time taken here at the read before a write is
 * no earlier than the {@code renewTime} that write stores, and counting the lease from it
 * never outlasts the Lease by more than the clocks' skew.
 * <p>
 * <b>Late attempts count for nothing.</b> A read or a write can be held up (a partition,
 * the HTTP client's retries) for longer than the Lease lasts, after which the record the
 * elector writes is already expired for the others. So:
 * <ul>
 * <li>a write whose read began {@code renew-deadline} or more ago is not sent: it fails,
 * and the elector tries again with a fresh read and a fresh {@code renewTime};</li>
 * <li>a write that the API server accepted, but whose answer came {@code renew-deadline}
 * or more after its read began, fails too and does not move {@link #lastRenewalNanos}:
 * the record it left may already have passed to another replica.</li>
 * </ul>
 * A write that failed or got no answer counts for nothing, though the server may have
 * applied it: that only makes this replica stop earlier.
 *
 * <p>
 * <b>Invariant.</b> {@link #lastRenewalNanos} only moves to the start of an attempt whose
 * write was answered less than {@code renew-deadline} after that start, so a replica that
 * is told it leads has {@code now - lastRenewalNanos < renew-deadline} when it is told.
 *
 * <p>
 * <b>Concurrency.</b> Thread-safe: the elector calls it from its own threads, one call at
 * a time; the times are volatile, read by the leadership watchdog.
 */
final class RenewalTrackingLock implements Lock {

	/** {@link #lastRenewalNanos} before any renewal. */
	static final long NEVER = Long.MIN_VALUE;

	private final Lock lease;

	private final long renewDeadlineNanos;

	private final LongSupplier nanoTime;

	/** When the read before the write in progress began. */
	private volatile long attemptNanos;

	private volatile long lastRenewalNanos = NEVER;

	/** Set once the next write is the release at shutdown, which is never stale. */
	private volatile boolean releasing;

	/**
	 * @param lease the Lease lock
	 * @param renewDeadline how old an attempt may be when its write is sent and answered
	 * @param nanoTime the monotonic clock ({@link System#nanoTime()} but in tests)
	 */
	RenewalTrackingLock(Lock lease, Duration renewDeadline, LongSupplier nanoTime) {
		this.lease = lease;
		this.renewDeadlineNanos = renewDeadline.toNanos();
		this.nanoTime = nanoTime;
	}

	/**
	 * When the last write that made or kept this replica the holder, and was answered
	 * within the renew deadline, began ({@link System#nanoTime()}), or {@link #NEVER}.
	 */
	long lastRenewalNanos() {
		return this.lastRenewalNanos;
	}

	/**
	 * Whether the last accepted renewal began less than the renew deadline ago.
	 * @param now the monotonic clock's time
	 */
	boolean renewedWithinDeadline(long now) {
		long last = this.lastRenewalNanos;
		return last != NEVER && now - last < this.renewDeadlineNanos;
	}

	/**
	 * The next write gives the Lease up (fabric8 writes it without a read first): it is
	 * sent whatever its age, and it renews nothing.
	 */
	void releasing() {
		this.releasing = true;
	}

	@Override
	public LeaderElectionRecord get(KubernetesClient client) {
		this.attemptNanos = this.nanoTime.getAsLong();
		try {
			return this.lease.get(client);
		}
		catch (RuntimeException ex) {
			throw asClientException("read", ex);
		}
	}

	@Override
	public void create(KubernetesClient client, LeaderElectionRecord record) {
		long attempt = beforeWrite();
		try {
			this.lease.create(client, record);
		}
		catch (RuntimeException ex) {
			throw asClientException("created", ex);
		}
		afterWrite(attempt, record);
	}

	@Override
	public void update(KubernetesClient client, LeaderElectionRecord record) {
		long attempt = beforeWrite();
		try {
			this.lease.update(client, record);
		}
		catch (RuntimeException ex) {
			throw asClientException("written", ex);
		}
		afterWrite(attempt, record);
	}

	/**
	 * A failed Lease call as the one exception fabric8's elector tries again after. Its
	 * client rethrows a request's unchecked failure as it came (a cancelled request's
	 * {@code CancellationException}, an HTTP client's own exception); any but a
	 * {@link KubernetesClientException} ends the elector's acquire loop, and the run's
	 * future then never completes: this replica would never run for the Lease again.
	 */
	private RuntimeException asClientException(String what, RuntimeException ex) {
		if (ex instanceof KubernetesClientException) {
			return ex;
		}
		return new KubernetesClientException("Lease " + describe() + " not " + what + ": " + ex, ex);
	}

	private long beforeWrite() {
		long attempt = this.attemptNanos;
		if (this.releasing) {
			return attempt;
		}
		long age = this.nanoTime.getAsLong() - attempt;
		if (age >= this.renewDeadlineNanos) {
			throw new KubernetesClientException("Lease " + describe() + " not written: its read began "
					+ Duration.ofNanos(age).toMillis() + " ms ago, past renew-deadline ("
					+ Duration.ofNanos(this.renewDeadlineNanos) + "), so the record would be stale; trying again");
		}
		return attempt;
	}

	private void afterWrite(long attempt, LeaderElectionRecord record) {
		if (this.releasing) {
			return;
		}
		long age = this.nanoTime.getAsLong() - attempt;
		if (age >= this.renewDeadlineNanos) {
			throw new KubernetesClientException("Lease " + describe() + " written, but answered "
					+ Duration.ofNanos(age).toMillis() + " ms after its read began, past renew-deadline ("
					+ Duration.ofNanos(this.renewDeadlineNanos)
					+ "): not counted, as another replica may already hold it");
		}
		if (identity().equals(record.getHolderIdentity())) {
			this.lastRenewalNanos = attempt;
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
