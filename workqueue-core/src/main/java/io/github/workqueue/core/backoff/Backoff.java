package io.github.workqueue.core.backoff;

import java.time.Duration;
import java.util.Objects;
import java.util.concurrent.ThreadLocalRandom;
import java.util.function.DoubleSupplier;

import io.github.workqueue.core.internal.Nanos;

/**
 * An exponential backoff with jitter, as apimachinery's {@code wait.Backoff}.
 *
 * <p>
 * Each {@link #step()} returns the current duration (plus jitter) and then, while steps
 * remain, multiplies the duration by the factor. When the product would exceed the cap,
 * the duration becomes the cap and no steps remain. Once no steps remain, every step
 * returns the (jittered) duration unchanged. Jitter adds a uniformly random amount in
 * {@code [0, jitter * duration)} to the returned value and never to the stored one.
 *
 * <p>
 * <b>Concurrency.</b> Not thread-safe: a backoff is a mutable sequence meant for one
 * retry loop; give each loop its own, or guard it.
 */
public final class Backoff {

	private final double factor;

	private final double jitter;

	private final Duration cap;

	private final DoubleSupplier random;

	private Duration duration;

	private int steps;

	/**
	 * Creates a backoff with a thread-local random source.
	 * @param duration the initial duration, not negative
	 * @param factor the multiplier per step; zero keeps the duration constant
	 * @param jitter the random fraction added per step; zero for none
	 * @param steps how many steps may still grow the duration; not positive for none
	 * @param cap the largest duration; zero or negative for no cap
	 */
	public Backoff(Duration duration, double factor, double jitter, int steps, Duration cap) {
		this(duration, factor, jitter, steps, cap, () -> ThreadLocalRandom.current().nextDouble());
	}

	/**
	 * Creates a backoff with the given random source.
	 * @param duration the initial duration, not negative
	 * @param factor the multiplier per step; zero keeps the duration constant
	 * @param jitter the random fraction added per step; zero for none
	 * @param steps how many steps may still grow the duration; not positive for none
	 * @param cap the largest duration; zero or negative for no cap
	 * @param random values in {@code [0, 1)}
	 */
	public Backoff(Duration duration, double factor, double jitter, int steps, Duration cap, DoubleSupplier random) {
		Objects.requireNonNull(duration, "duration");
		Objects.requireNonNull(cap, "cap");
		Objects.requireNonNull(random, "random");
		if (duration.isNegative()) {
			throw new IllegalArgumentException("duration must not be negative, was " + duration);
		}
		if (factor < 0 || Double.isNaN(factor)) {
			throw new IllegalArgumentException("factor must not be negative, was " + factor);
		}
		this.duration = duration;
		this.factor = factor;
		this.jitter = jitter;
		this.steps = steps;
		this.cap = cap;
		this.random = random;
	}

	/**
	 * Returns the next wait and advances the sequence.
	 * @return how long to wait now
	 */
	public Duration step() {
		if (this.steps < 1) {
			return jittered(this.duration);
		}
		this.steps--;
		Duration current = this.duration;
		if (this.factor != 0) {
			this.duration = Duration.ofNanos(multiplySaturated(Nanos.of(this.duration), this.factor));
			if (this.cap.compareTo(Duration.ZERO) > 0 && this.duration.compareTo(this.cap) > 0) {
				this.duration = this.cap;
				this.steps = 0;
			}
		}
		return jittered(current);
	}

	private Duration jittered(Duration value) {
		return (this.jitter > 0) ? jitter(value, this.jitter, this.random) : value;
	}

	/**
	 * Returns the duration plus a random amount in {@code [0, maxFactor * duration)}; a
	 * {@code maxFactor} of zero or less means 1, as in apimachinery's {@code Jitter}.
	 * @param duration the duration
	 * @param maxFactor the largest fraction to add
	 * @param random values in {@code [0, 1)}
	 * @return the jittered duration
	 */
	public static Duration jitter(Duration duration, double maxFactor, DoubleSupplier random) {
		double factor = (maxFactor <= 0) ? 1.0 : maxFactor;
		long nanos = Nanos.of(duration);
		long extra = (long) (random.getAsDouble() * factor * nanos);
		return Duration.ofNanos(Nanos.saturatedAdd(nanos, extra));
	}

	private static long multiplySaturated(long nanos, double factor) {
		// A double cast to long saturates at Long.MAX_VALUE, and truncates like Go's
		// time.Duration(float64(d) * factor).
		return (long) (nanos * factor);
	}

	/**
	 * Returns the duration that the next step starts from, without jitter.
	 * @return the current duration
	 */
	public Duration duration() {
		return this.duration;
	}

	/**
	 * Returns how many steps may still grow the duration.
	 * @return the remaining steps
	 */
	public int steps() {
		return this.steps;
	}

}
