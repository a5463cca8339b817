package io.github.workqueue.core.internal;

import java.lang.System.Logger.Level;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.TimeUnit;

import io.github.workqueue.core.Clock;

/**
 * The {@link Clock} backed by {@link System#nanoTime()}: every timer of every queue runs
 * on one shared daemon thread, so delayed items cost no thread of their own.
 *
 * <p>
 * <b>Concurrency.</b> Thread-safe. Timer tasks run one at a time on the thread
 * {@code workqueue-timer}; a task that throws is logged and does not stop the thread.
 */
public final class SystemClock implements Clock {

	/** The one instance. */
	public static final SystemClock INSTANCE = new SystemClock();

	private static final System.Logger logger = System.getLogger(SystemClock.class.getName());

	private final long origin = System.nanoTime();

	private final ScheduledThreadPoolExecutor timers;

	private SystemClock() {
		this.timers = new ScheduledThreadPoolExecutor(1, (runnable) -> {
			Thread thread = new Thread(runnable, "workqueue-timer");
			thread.setDaemon(true);
			return thread;
		});
		this.timers.setRemoveOnCancelPolicy(true);
	}

	@Override
	public long nanoTime() {
		return System.nanoTime() - this.origin;
	}

	@Override
	public Timer schedule(long deadlineNanos, Runnable task) {
		long delay = deadlineNanos - nanoTime();
		ScheduledFuture<?> future = this.timers.schedule(() -> runGuarded(task), delay, TimeUnit.NANOSECONDS);
		return () -> future.cancel(false);
	}

	private static void runGuarded(Runnable task) {
		try {
			task.run();
		}
		catch (RuntimeException | Error ex) {
			logger.log(Level.ERROR, "workqueue timer task failed", ex);
		}
	}

}
