package io.github.workqueue.core;

import java.time.Duration;
import java.util.PriorityQueue;

import io.github.workqueue.core.internal.Nanos;

/**
 * A {@link Clock} that moves only when told to, for tests, with the semantics of
 * client-go's fake clock.
 *
 * <p>
 * {@link #step(Duration)} first sets the time to the end of the step, then runs every
 * timer that is due by then, in deadline order (equal deadlines in the order they were
 * scheduled), on the calling thread. So a timer sees the time at the end of the step, and
 * a timer that schedules itself again one period later runs at most once per step,
 * however many periods the step crosses. A timer scheduled for a time that has already
 * come (during a step, from any thread, or between steps) is due at once: it runs on the
 * scheduling thread before {@link #schedule(long, Runnable)} returns. Tests therefore
 * never sleep.
 *
 * <p>
 * <b>Concurrency.</b> Thread-safe; timers run without this clock's lock held. Steps from
 * several threads are serialized.
 */
public final class FakeClock implements Clock {

	private final Object lock = new Object();

	/** Held by the thread that steps. */
	private final Object stepping = new Object();

	/** Guarded by {@code lock}. */
	private final PriorityQueue<FakeTimer> timers = new PriorityQueue<>();

	/** Guarded by {@code lock}. */
	private long now;

	/** Guarded by {@code lock}. */
	private long nextSequence;

	/**
	 * Creates a clock at time zero.
	 */
	public FakeClock() {
		this(0);
	}

	/**
	 * Creates a clock at the given time.
	 * @param startNanos the initial time
	 */
	public FakeClock(long startNanos) {
		this.now = startNanos;
	}

	@Override
	public long nanoTime() {
		synchronized (this.lock) {
			return this.now;
		}
	}

	@Override
	public Timer schedule(long deadlineNanos, Runnable task) {
		FakeTimer timer;
		synchronized (this.lock) {
			timer = new FakeTimer(deadlineNanos, this.nextSequence++, task);
			if (deadlineNanos > this.now) {
				this.timers.add(timer);
				return timer;
			}
		}
		task.run();
		return timer;
	}

	/**
	 * Advances the time and runs the timers that became due.
	 * @param duration how far to advance, not negative
	 */
	public void step(Duration duration) {
		if (duration.isNegative()) {
			throw new IllegalArgumentException("FakeClock.step: duration must not be negative, was " + duration);
		}
		synchronized (this.stepping) {
			long target;
			synchronized (this.lock) {
				target = Nanos.saturatedAdd(this.now, Nanos.of(duration));
				this.now = target;
			}
			FakeTimer due;
			while ((due = pollDue(target)) != null) {
				due.task.run();
			}
		}
	}

	/**
	 * Returns the number of timers scheduled and not yet run or cancelled.
	 * @return the number of pending timers
	 */
	public int pendingTimers() {
		synchronized (this.lock) {
			return this.timers.size();
		}
	}

	private FakeTimer pollDue(long target) {
		synchronized (this.lock) {
			FakeTimer first = this.timers.peek();
			if (first == null || first.deadline > target) {
				return null;
			}
			this.timers.poll();
			return first;
		}
	}

	private final class FakeTimer implements Timer, Comparable<FakeTimer> {

		final long deadline;

		final long sequence;

		final Runnable task;

		FakeTimer(long deadline, long sequence, Runnable task) {
			this.deadline = deadline;
			this.sequence = sequence;
			this.task = task;
		}

		@Override
		public void cancel() {
			synchronized (FakeClock.this.lock) {
				FakeClock.this.timers.remove(this);
			}
		}

		@Override
		public int compareTo(FakeTimer other) {
			int byDeadline = Long.compare(this.deadline, other.deadline);
			return (byDeadline != 0) ? byDeadline : Long.compare(this.sequence, other.sequence);
		}

	}

}
