package io.github.workqueue.core;

import java.time.Duration;
import java.util.Objects;

import org.jspecify.annotations.Nullable;

/**
 * How an item is added by {@link RateLimitingQueue#add(Object, AddOptions)}: with a
 * priority (higher first), after a delay, rate-limited, or any of these together, as
 * controller-runtime's {@code AddWithOpts}. Immutable.
 *
 * <pre>{@code
 * queue.add(key, AddOptions.priority(10));
 * queue.add(key, AddOptions.priority(-5).withDelay(Duration.ofSeconds(30)));
 * queue.add(key, AddOptions.rateLimited().withPriority(1));
 * }</pre>
 *
 * <p>
 * An item that is already queued, waiting or being processed keeps the highest priority
 * of all its adds and the earliest ready time; when both a delay and rate-limiting are
 * asked, the item waits for the shorter of the two, as in controller-runtime.
 */
public final class AddOptions {

	private static final AddOptions DEFAULTS = new AddOptions(null, Duration.ZERO, false);

	private final @Nullable Integer priority;

	private final Duration delay;

	private final boolean rateLimited;

	private AddOptions(@Nullable Integer priority, Duration delay, boolean rateLimited) {
		this.priority = priority;
		this.delay = delay;
		this.rateLimited = rateLimited;
	}

	/**
	 * Options that change nothing: the queue's default priority, no delay.
	 * @return the defaults
	 */
	public static AddOptions defaults() {
		return DEFAULTS;
	}

	/**
	 * Adds with the given priority.
	 * @param priority higher leaves first; the queue's default (usually 0) when not given
	 * @return the options
	 */
	public static AddOptions priority(int priority) {
		return DEFAULTS.withPriority(priority);
	}

	/**
	 * Adds once the delay has passed, as
	 * {@link DelayingQueue#addAfter(Object, Duration)}.
	 * @param delay the delay; zero or less is now
	 * @return the options
	 */
	public static AddOptions delay(Duration delay) {
		return DEFAULTS.withDelay(delay);
	}

	/**
	 * Adds after the delay the queue's rate limiter gives, as
	 * {@link RateLimitingQueue#addRateLimited(Object)}.
	 * @return the options
	 */
	public static AddOptions rateLimited() {
		return DEFAULTS.withRateLimit();
	}

	/**
	 * Returns these options with the given priority.
	 * @param priority higher leaves first
	 * @return new options
	 */
	public AddOptions withPriority(int priority) {
		return new AddOptions(priority, this.delay, this.rateLimited);
	}

	/**
	 * Returns these options with the given delay.
	 * @param delay the delay; zero or less is now
	 * @return new options
	 */
	public AddOptions withDelay(Duration delay) {
		return new AddOptions(this.priority, Objects.requireNonNull(delay, "delay"), this.rateLimited);
	}

	/**
	 * Returns these options with the rate limiter's delay asked too.
	 * @return new options
	 */
	public AddOptions withRateLimit() {
		return new AddOptions(this.priority, this.delay, true);
	}

	/**
	 * Returns the priority given, or the queue's default.
	 * @param defaultPriority the queue's default priority
	 * @return the priority to add with
	 */
	public int priorityOr(int defaultPriority) {
		return (this.priority != null) ? this.priority : defaultPriority;
	}

	/**
	 * Tells whether a priority was given.
	 * @return true if {@link #priority(int)} or {@link #withPriority(int)} set one
	 */
	public boolean hasPriority() {
		return this.priority != null;
	}

	/**
	 * Returns the delay given.
	 * @return the delay, zero when none
	 */
	public Duration delay() {
		return this.delay;
	}

	/**
	 * Tells whether the rate limiter's delay is asked.
	 * @return true when rate-limited
	 */
	public boolean isRateLimited() {
		return this.rateLimited;
	}

	@Override
	public boolean equals(Object other) {
		return other instanceof AddOptions that && Objects.equals(this.priority, that.priority)
				&& this.delay.equals(that.delay) && this.rateLimited == that.rateLimited;
	}

	@Override
	public int hashCode() {
		return Objects.hash(this.priority, this.delay, this.rateLimited);
	}

	@Override
	public String toString() {
		return "AddOptions[priority=" + ((this.priority != null) ? this.priority : "default") + ", delay=" + this.delay
				+ ", rateLimited=" + this.rateLimited + "]";
	}

}
