package io.github.workqueue.spring.internal;

import java.util.concurrent.TimeUnit;
import java.util.function.LongSupplier;

import org.apache.commons.logging.Log;
import org.jspecify.annotations.Nullable;

/**
 * Logs the failures to handle items' outcomes (forget, requeue, retry, give up, done)
 * without a stack trace per item when they all fail alike: the first failure of a run is
 * logged at ERROR with its stack trace; later ones of the same kind (the same exception
 * class), until an outcome is handled again, are counted and logged at WARN once a minute
 * at most, with how many came meanwhile and without a stack trace. An outage of the
 * queue's backend fails every worker's outcome the same way, and the queue logs the
 * outage itself.
 *
 * <p>
 * <b>Concurrency.</b> Thread-safe: the run's state is guarded by this object's monitor;
 * {@link #succeeded()} reads {@link #runKind} without it first, so that the usual case,
 * no run, costs a volatile read.
 */
final class OutcomeFailureLog {

	/** The shortest time between two WARN lines of one run. */
	static final long REPEAT_NANOS = TimeUnit.MINUTES.toNanos(1);

	private final Log logger;

	private final LongSupplier nanoTime;

	/** The exception class of the run of failures under way, or {@code null} for none. */
	private volatile @Nullable Class<?> runKind;

	/** Failures of the run not logged yet; guarded by the monitor. */
	private long unlogged;

	/** When the run last logged a line; guarded by the monitor. */
	private long loggedNanos;

	OutcomeFailureLog(Log logger, LongSupplier nanoTime) {
		this.logger = logger;
		this.nanoTime = nanoTime;
	}

	/** An outcome failed: logged as the class comment says. */
	void failed(String message, Throwable ex) {
		long now = this.nanoTime.getAsLong();
		long repeated;
		synchronized (this) {
			if (this.runKind != ex.getClass()) {
				this.runKind = ex.getClass();
				this.unlogged = 0;
				this.loggedNanos = now;
				repeated = -1;
			}
			else if (now - this.loggedNanos >= REPEAT_NANOS) {
				repeated = this.unlogged + 1;
				this.unlogged = 0;
				this.loggedNanos = now;
			}
			else {
				this.unlogged++;
				return;
			}
		}
		if (repeated < 0) {
			this.logger.error(message + " (later failures like it are counted, not logged one by one, until an "
					+ "outcome is handled again)", ex);
		}
		else {
			this.logger.warn(message + ": " + ex + "; " + repeated + " outcome(s) failed like it since the last line");
		}
	}

	/**
	 * An outcome was handled: a run of failures ends, and says how many it left unlogged.
	 */
	void succeeded() {
		if (this.runKind == null) {
			return;
		}
		long unlogged;
		synchronized (this) {
			if (this.runKind == null) {
				return;
			}
			unlogged = this.unlogged;
			this.runKind = null;
			this.unlogged = 0;
		}
		if (unlogged > 0) {
			this.logger.warn("Outcomes are handled again; " + unlogged + " more failed before, unlogged");
		}
	}

}
