package io.github.workqueue.redis.internal.batch;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;

import io.github.workqueue.redis.UnreplicatedWriteException;
import io.lettuce.core.RedisException;
import org.jspecify.annotations.Nullable;

/**
 * A request to the {@link Batcher} whose caller waits, uninterruptibly, for its outcome:
 * an add or a done of one shard. Thread-safe: the outcome is written once, under the
 * request's monitor, before {@code completed} is set; whether the caller stopped waiting
 * first ({@code callerLeft}) is decided under the same monitor, so that exactly one of
 * the caller and the completer sees an outcome that came after the caller left.
 *
 * <p>
 * Public only for the queue's classes one package up; not an API.
 */
public abstract class BatchRequest {

	private boolean completed;

	/** Set once the caller stopped waiting without the outcome. */
	private boolean callerLeft;

	/** Set to let the caller go before the outcome comes. */
	private boolean released;

	/**
	 * Waits, uninterruptibly (the interrupt is kept), for the outcome; without it, the
	 * caller leaves, and a later outcome is {@link #completeOnce late}.
	 * @param timeoutNanos how long to wait at most
	 * @return whether the outcome came in time
	 */
	final synchronized boolean await(long timeoutNanos) {
		long start = System.nanoTime();
		boolean interrupted = false;
		while (!this.completed && !this.released) {
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
		this.callerLeft = !this.completed;
		return this.completed;
	}

	/** The caller does not wait: the outcome, when it comes, is late. */
	final synchronized void leave() {
		this.callerLeft = !this.completed;
	}

	/** Lets the caller stop waiting now, without the outcome, which may still come. */
	final synchronized void release() {
		this.released = true;
		notifyAll();
	}

	/**
	 * Writes the outcome and wakes the caller, once: a later completion is ignored.
	 * @return whether the outcome was written after the caller had left
	 */
	final synchronized boolean completeOnce(Runnable writeOutcome) {
		if (this.completed) {
			return false;
		}
		writeOutcome.run();
		this.completed = true;
		notifyAll();
		return this.callerLeft;
	}

	public static final class Add extends BatchRequest {

		final int shard;

		final String encoded;

		/** The add's priority, or null for a plain add (priority 0, no fairness keys). */
		final @Nullable String priority;

		/** The item's fairness keys as JSON, or empty. */
		final String keys;

		/** The trace context the add carries, or null for none. */
		final @Nullable String trace;

		/**
		 * The calling thread's done without waiting, for the same shard, that this add
		 * must follow; set before the add is queued, under the batch state's monitor.
		 */
		@Nullable Done after;

		boolean made;

		@Nullable RedisException failure;

		/**
		 * The outcome for a caller that does not wait ({@code addAsync}): completed by
		 * {@link #settle()}, off the sender thread; {@code null} for a caller that waits.
		 */
		final @Nullable CompletableFuture<Boolean> async;

		Add(int shard, String encoded) {
			this(shard, encoded, null, "", null, null);
		}

		Add(int shard, String encoded, @Nullable String priority, String keys) {
			this(shard, encoded, priority, keys, null, null);
		}

		/**
		 * @param priority the add's priority, or null for a plain add
		 * @param keys the item's fairness keys as JSON, or empty
		 * @param trace the trace context the add carries, or null
		 * @param async the caller's outcome if it does not wait, or null
		 */
		Add(int shard, String encoded, @Nullable String priority, String keys, @Nullable String trace,
				@Nullable CompletableFuture<Boolean> async) {
			this.shard = shard;
			this.encoded = encoded;
			this.priority = priority;
			this.keys = keys;
			this.trace = trace;
			this.async = async;
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

		/**
		 * Hands the outcome, once written, to the caller that did not wait: its future
		 * completes with whether the add made the item dirty, or with the failure.
		 */
		void settle() {
			CompletableFuture<Boolean> future = this.async;
			if (future == null) {
				return;
			}
			boolean madeDirty;
			RedisException failed;
			synchronized (this) {
				madeDirty = this.made;
				failed = this.failure;
			}
			if (failed != null) {
				future.completeExceptionally(failed);
			}
			else {
				future.complete(madeDirty);
			}
		}

	}

	/**
	 * A done: asked of Redis again after each failure until Redis answers or
	 * {@code askUntilNanos} passes, whether or not its caller still waits.
	 */
	static final class Done extends BatchRequest {

		final int shard;

		/** The lease's item, as Redis knows it. */
		final String encoded;

		/** The lease's token. */
		final long token;

		/** Whether the thread that asked it took the lease itself. */
		final boolean byTaker;

		/** When the last attempt may be sent ({@link System#nanoTime()}). */
		final long askUntilNanos;

		final Thread requester;

		/** Told, once, of an outcome that came after the caller left. */
		private final Consumer<@Nullable Boolean> lateOutcome;

		@Nullable Boolean accepted;

		/** Set with an accepted outcome that fewer replicas confirmed than asked. */
		@Nullable UnreplicatedWriteException unreplicated;

		/**
		 * Set, under the batch state's monitor, once a part carrying this done was made.
		 */
		boolean sent;

		Done(int shard, String encoded, long token, Thread taker, long askUntilNanos, Thread requester,
				Consumer<@Nullable Boolean> lateOutcome) {
			this.shard = shard;
			this.encoded = encoded;
			this.token = token;
			this.byTaker = taker == requester;
			this.askUntilNanos = askUntilNanos;
			this.requester = requester;
			this.lateOutcome = lateOutcome;
		}

		/**
		 * Writes the outcome: whether Redis accepted the token, or {@code null} if it
		 * will never be known (no answer before {@code askUntilNanos}, or a reply that
		 * could not be read). An outcome that comes after the caller left goes to the
		 * late consumer.
		 */
		void complete(@Nullable Boolean accepted) {
			complete(accepted, null);
		}

		/**
		 * Writes the outcome as {@link #complete(Boolean)} does, with the exception of an
		 * accepted done that fewer replicas confirmed than asked (the caller that waits
		 * gets it; a late or unawaited outcome is the acceptance, the shortfall having
		 * been logged and counted).
		 */
		void complete(@Nullable Boolean accepted, @Nullable UnreplicatedWriteException unreplicated) {
			if (completeOnce(() -> {
				this.accepted = accepted;
				this.unreplicated = unreplicated;
			})) {
				this.lateOutcome.accept(accepted);
			}
		}

	}

}
