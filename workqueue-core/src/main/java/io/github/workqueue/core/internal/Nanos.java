package io.github.workqueue.core.internal;

import java.time.Duration;

/**
 * Saturating nanosecond arithmetic, so that huge durations and deadlines clamp instead of
 * wrapping around.
 */
public final class Nanos {

	private Nanos() {
	}

	/**
	 * Converts a duration to nanoseconds, clamped to the range of {@code long}.
	 * @param duration the duration
	 * @return its length in nanoseconds
	 */
	public static long of(Duration duration) {
		try {
			return duration.toNanos();
		}
		catch (ArithmeticException overflow) {
			return duration.isNegative() ? Long.MIN_VALUE : Long.MAX_VALUE;
		}
	}

	/**
	 * The time left of a timeout begun at {@code start}.
	 * @param start {@link System#nanoTime()} when the timeout began
	 * @param timeoutNanos the timeout, {@code Long.MAX_VALUE} for none
	 * @return what is left (negative once it passed), {@code Long.MAX_VALUE} for none
	 */
	public static long remaining(long start, long timeoutNanos) {
		return (timeoutNanos == Long.MAX_VALUE) ? Long.MAX_VALUE : timeoutNanos - (System.nanoTime() - start);
	}

	/**
	 * Adds two values, clamping at the range of {@code long}.
	 * @param a the first value
	 * @param b the second value
	 * @return the clamped sum
	 */
	public static long saturatedAdd(long a, long b) {
		long sum = a + b;
		if (((a ^ sum) & (b ^ sum)) < 0) {
			return (a < 0) ? Long.MIN_VALUE : Long.MAX_VALUE;
		}
		return sum;
	}

	/**
	 * Converts nanoseconds to seconds.
	 * @param nanos the nanoseconds
	 * @return the seconds
	 */
	public static double toSeconds(long nanos) {
		return nanos / 1e9;
	}

	/**
	 * The earlier of two {@link System#nanoTime()} readings, compared as the difference
	 * of the two so that the readings may wrap.
	 */
	public static long earlier(long a, long b) {
		return (b - a < 0) ? b : a;
	}

}
