package io.github.workqueue.redis.internal.batch;

/**
 * A lease taken ahead of the workers (prefetch): it waits in the {@link Batcher}'s buffer
 * until a thread's {@code get} takes it, renewed meanwhile like a lease a worker holds.
 * The grant never changes; the deadline, the last confirmation and the expiry are written
 * by the renewer and read by the thread it is handed to. Thread-safe: those fields are
 * volatile, with one writer.
 *
 * <p>
 * Public only for the queue's classes one package up; not an API.
 */
public final class BufferedGrant implements Renewable {

	final Grant grant;

	/**
	 * When the lease was taken ({@link System#nanoTime()}), for its time in the buffer.
	 */
	private final long bufferedNanos;

	private volatile long deadlineMicros;

	private volatile long confirmedNanos;

	private volatile boolean expired;

	BufferedGrant(Grant grant) {
		this.grant = grant;
		this.bufferedNanos = System.nanoTime();
		this.deadlineMicros = grant.deadlineMicros();
		this.confirmedNanos = grant.sentNanos();
	}

	@Override
	public String encoded() {
		return this.grant.encoded();
	}

	@Override
	public long token() {
		return this.grant.token();
	}

	@Override
	public void renewed(long deadlineMicros, long sentNanos) {
		this.deadlineMicros = deadlineMicros;
		this.confirmedNanos = sentNanos;
	}

	@Override
	public boolean expired() {
		boolean news = !this.expired;
		this.expired = true;
		return news;
	}

	/** How long it has waited in the buffer. */
	long waitedNanos(long now) {
		return now - this.bufferedNanos;
	}

	/**
	 * Whether the lease can still be handed out: Redis did not say it expired, and its
	 * last confirmation is recent enough that it is live for most of a lease more.
	 * @param handOutNanos how long after its last confirmation a lease may be handed out
	 */
	boolean canHandOut(long now, long handOutNanos) {
		return !this.expired && now - this.confirmedNanos < handOutNanos;
	}

	/**
	 * The grant as the thread it is handed to sees it: with the last renewal, and its
	 * time in the buffer counted as time queued.
	 */
	Grant handOut(long now) {
		Grant taken = this.grant;
		long buffered = (now - this.bufferedNanos) / 1000;
		return new Grant(taken.shard(), taken.encoded(), taken.token(), this.deadlineMicros,
				taken.queuedMicros() + buffered, taken.priority(), this.confirmedNanos, taken.traces());
	}

}
