package io.github.workqueue.spring;

import java.time.Duration;

/**
 * How the worker containers as a whole run; a bean of this type replaces the
 * {@linkplain #DEFAULTS defaults}.
 *
 * @param shutdownTimeout how long shutdown waits for items in flight, in total for all
 * queues
 * @param virtualThreads whether workers run on virtual threads (JDK 21 and later)
 */
public record QueueWorkerOptions(Duration shutdownTimeout, boolean virtualThreads) {

	/** 30 seconds to finish at shutdown, platform threads. */
	public static final QueueWorkerOptions DEFAULTS = new QueueWorkerOptions(Duration.ofSeconds(30), false);

	public QueueWorkerOptions {
		if (shutdownTimeout.isNegative()) {
			throw new IllegalArgumentException("shutdownTimeout must not be negative, was " + shutdownTimeout);
		}
	}

}
