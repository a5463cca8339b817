package io.github.workqueue.redis.internal;

/**
 * A lease this instance was granted. The token and encoding never change; the deadline
 * and the lost flag are written by the renewer and read by {@code lease(item)};
 * {@code ended} is set once, when the lease leaves {@link HeldLeases} (done, or given
 * back at shutdown).
 */
final class HeldLease {

	final String encoded;

	final long token;

	final long takenNanos;

	volatile long deadlineMicros;

	volatile boolean lost;

	volatile boolean ended;

	HeldLease(String encoded, long token, long deadlineMicros, long takenNanos) {
		this.encoded = encoded;
		this.token = token;
		this.deadlineMicros = deadlineMicros;
		this.takenNanos = takenNanos;
	}

}
