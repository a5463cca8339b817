package io.github.workqueue.core.backoff;

import java.time.Duration;
import java.util.Objects;

import io.github.workqueue.core.Clock;
import io.github.workqueue.core.internal.Nanos;

/**
 * Exponential backoff that starts over after a quiet period, as apimachinery's
 * {@code exponentialBackoffManagerImpl}: when more than {@code resetDuration} passed
 * since the previous {@link #next()}, the sequence returns to the initial duration.
 * Jittered, capped at the maximum, and never runs out of steps.
 *
 * <p>
 * <b>Concurrency.</b> Thread-safe: {@code next} is synchronized.
 */
public final class ExponentialBackoffManager implements BackoffManager {

	private final Duration initialBackoff;

	private final Duration maxBackoff;

	private final double factor;

	private final double jitter;

	private final long resetNanos;

	private final Clock clock;

	/** Guarded by {@code this}. */
	private Backoff backoff;

	/** Guarded by {@code this}. */
	private long lastBackoffStart;

	/**
	 * Creates the manager.
	 * @param initialBackoff the first wait
	 * @param maxBackoff the cap of the wait
	 * @param resetDuration the quiet period after which the sequence starts over
	 * @param factor the multiplier per step
	 * @param jitter the random fraction added per step
	 * @param clock the time source
	 */
	public ExponentialBackoffManager(Duration initialBackoff, Duration maxBackoff, Duration resetDuration,
			double factor, double jitter, Clock clock) {
		this.initialBackoff = Objects.requireNonNull(initialBackoff, "initialBackoff");
		this.maxBackoff = Objects.requireNonNull(maxBackoff, "maxBackoff");
		this.resetNanos = Nanos.of(Objects.requireNonNull(resetDuration, "resetDuration"));
		this.factor = factor;
		this.jitter = jitter;
		this.clock = Objects.requireNonNull(clock, "clock");
		this.backoff = newBackoff();
		this.lastBackoffStart = clock.nanoTime();
	}

	private Backoff newBackoff() {
		return new Backoff(this.initialBackoff, this.factor, this.jitter, Integer.MAX_VALUE, this.maxBackoff);
	}

	@Override
	public synchronized Duration next() {
		long now = this.clock.nanoTime();
		if (now - this.lastBackoffStart > this.resetNanos) {
			this.backoff = newBackoff();
		}
		this.lastBackoffStart = now;
		return this.backoff.step();
	}

}
