package io.github.workqueue.spring;

import java.time.Duration;
import java.util.Objects;

import org.jspecify.annotations.Nullable;

/**
 * What a {@link QueueWorker} method asks for after processing an item normally, like
 * controller-runtime's {@code reconcile.Result}: finish, requeue now through the rate
 * limiter, or requeue after a delay (periodic resync). Returning {@code void} or
 * {@code null} is {@link #done()}. A requeued item keeps its priority, or takes the one
 * given by {@link #withPriority(int)} if that is higher.
 */
public final class WorkResult {

	private static final WorkResult DONE = new WorkResult(Kind.DONE, null);

	private static final WorkResult REQUEUE = new WorkResult(Kind.REQUEUE, null);

	private final Kind kind;

	private final @Nullable Duration delay;

	private final @Nullable Integer priority;

	private WorkResult(Kind kind, @Nullable Duration delay) {
		this(kind, delay, null);
	}

	private WorkResult(Kind kind, @Nullable Duration delay, @Nullable Integer priority) {
		this.priority = priority;
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

	/**
	 * Returns this requeue with a priority for the re-add: the item keeps the higher of
	 * its own and this one.
	 * @param priority the priority
	 * @return the result with the priority
	 * @throws IllegalStateException on {@link #done()}, which requeues nothing
	 */
	public WorkResult withPriority(int priority) {
		if (this.kind == Kind.DONE) {
			throw new IllegalStateException("WorkResult.done() requeues nothing: a priority applies to requeue() "
					+ "and requeueAfter(Duration)");
		}
		return new WorkResult(this.kind, this.delay, priority);
	}

	/**
	 * Returns the priority given by {@link #withPriority(int)}.
	 * @return the priority, or null when the item keeps its own
	 */
	public @Nullable Integer priority() {
		return this.priority;
	}

	@Override
	public String toString() {
		String text = (this.delay != null) ? this.kind + "(" + this.delay + ")" : this.kind.toString();
		return (this.priority != null) ? text + " at priority " + this.priority : text;
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
