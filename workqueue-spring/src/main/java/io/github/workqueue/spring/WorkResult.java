package io.github.workqueue.spring;

import java.time.Duration;
import java.util.Objects;

import org.jspecify.annotations.Nullable;

/**
 * What a {@link QueueWorker} method asks for after processing an item normally, like
 * controller-runtime's {@code reconcile.Result}: finish, requeue now through the rate
 * limiter, or requeue after a delay (periodic resync). Returning {@code void} or
 * {@code null} is {@link #done()}.
 */
public final class WorkResult {

	private static final WorkResult DONE = new WorkResult(Kind.DONE, null);

	private static final WorkResult REQUEUE = new WorkResult(Kind.REQUEUE, null);

	private final Kind kind;

	private final @Nullable Duration delay;

	private WorkResult(Kind kind, @Nullable Duration delay) {
		this.kind = kind;
		this.delay = delay;
	}

	/**
	 * The item is finished: the rate limiter forgets it.
	 * @return the result
	 */
	public static WorkResult done() {
		return DONE;
	}

	/**
	 * Process the item again after the rate limiter's wait, without counting a failure
	 * against {@code max-retries}.
	 * @return the result
	 */
	public static WorkResult requeue() {
		return REQUEUE;
	}

	/**
	 * Process the item again after the delay: the rate limiter forgets it, then it is
	 * added after the delay.
	 * @param delay the delay, not negative
	 * @return the result
	 */
	public static WorkResult requeueAfter(Duration delay) {
		Objects.requireNonNull(delay, "delay");
		if (delay.isNegative()) {
			throw new IllegalArgumentException("requeueAfter: delay must not be negative, was " + delay);
		}
		return new WorkResult(Kind.REQUEUE_AFTER, delay);
	}

	/**
	 * Returns what is asked for.
	 * @return the kind
	 */
	public Kind kind() {
		return this.kind;
	}

	/**
	 * Returns the delay of {@link Kind#REQUEUE_AFTER}.
	 * @return the delay, or null for the other kinds
	 */
	public @Nullable Duration delay() {
		return this.delay;
	}

	@Override
	public String toString() {
		return (this.delay != null) ? this.kind + "(" + this.delay + ")" : this.kind.toString();
	}

	/**
	 * The kinds of result.
	 */
	public enum Kind {

		/** Finished. */
		DONE,

		/** Requeue through the rate limiter. */
		REQUEUE,

		/** Requeue after a delay. */
		REQUEUE_AFTER

	}

}
