package io.github.workqueue.redis.internal;

import java.util.concurrent.TimeUnit;

import io.lettuce.core.RedisException;
import org.jspecify.annotations.Nullable;

/**
 * A request to the {@link Batcher} whose caller waits, uninterruptibly, for its outcome:
 * an add or a done of one shard. Thread-safe: the outcome is written once, under the
 * request's monitor, before {@code completed} is set.
 */
abstract class BatchRequest {

	private boolean completed;

	/**
	 * Waits, uninterruptibly (the interrupt is kept), for the outcome.
	 * @param timeoutNanos how long to wait at most
	 * @return whether the outcome came in time
	 */
	final synchronized boolean await(long timeoutNanos) {
		long start = System.nanoTime();
		boolean interrupted = false;
		while (!this.completed) {
			long remaining = timeoutNanos - (System.nanoTime() - start);
			if (remaining <= 0) {
				break;
			}
			try {
				TimeUnit.NANOSECONDS.timedWait(this, remaining);
			}
			catch (InterruptedException ex) {
				interrupted = true;
			}
		}
		if (interrupted) {
			Thread.currentThread().interrupt();
		}
		return this.completed;
	}

	/** Writes the outcome and wakes the caller, once: a later completion is ignored. */
	final synchronized void completeOnce(Runnable writeOutcome) {
		if (this.completed) {
			return;
		}
		writeOutcome.run();
		this.completed = true;
		notifyAll();
	}

	static final class Add extends BatchRequest {

		final int shard;

		final String encoded;

		/** The add's priority, or null for a plain add (priority 0, no fairness keys). */
		final @Nullable String priority;

		/** The item's fairness keys as JSON, or empty. */
		final String keys;

		boolean made;

		@Nullable RedisException failure;

		Add(int shard, String encoded) {
			this(shard, encoded, null, "");
		}

		Add(int shard, String encoded, @Nullable String priority, String keys) {
			this.shard = shard;
			this.encoded = encoded;
			this.priority = priority;
			this.keys = keys;
		}

		boolean isPlain() {
			return this.priority == null;
		}

		void complete(boolean made, @Nullable RedisException failure) {
			completeOnce(() -> {
				this.made = made;
				this.failure = failure;
			});
		}

	}

	static final class Done extends BatchRequest {

		final int shard;

		final HeldLease lease;

		final long giveUpAtNanos;

		final Thread requester;

		@Nullable Boolean accepted;

		Done(int shard, HeldLease lease, long giveUpAtNanos, Thread requester) {
			this.shard = shard;
			this.lease = lease;
			this.giveUpAtNanos = giveUpAtNanos;
			this.requester = requester;
		}

		void complete(@Nullable Boolean accepted) {
			completeOnce(() -> this.accepted = accepted);
		}

	}

}
