package io.github.workqueue.core;

import io.github.workqueue.core.internal.SystemClock;

/**
 * The source of time and timers for queues, rate limiters and backoff.
 *
 * <p>
 * Time is a monotonic count of nanoseconds from an arbitrary origin; only differences
 * mean anything. {@link #system()} is backed by {@link System#nanoTime()} and one shared
 * timer thread; {@link FakeClock} is moved by hand in tests.
 *
 * <p>
 * <b>Concurrency.</b> Implementations are thread-safe. Timer tasks must be short and must
 * not block: they run on a thread shared by every queue.
 */
public interface Clock {

	/**
	 * Returns the clock backed by {@link System#nanoTime()}, with one daemon timer thread
	 * shared by every queue.
	 * @return the system clock
	 */
	static Clock system() {
		return SystemClock.INSTANCE;
	}

	/**
	 * Returns the current time.
	 * @return nanoseconds since this clock's origin
	 */
	long nanoTime();

	/**
	 * Runs the task once, at or soon after the deadline.
	 * @param deadlineNanos when to run, on this clock's time line
	 * @param task the task to run
	 * @return a handle to cancel the timer
	 */
	Timer schedule(long deadlineNanos, Runnable task);

	/**
	 * A scheduled timer.
	 */
	interface Timer {

		/**
		 * Stops the timer if it has not run yet.
		 */
		void cancel();

	}

}
