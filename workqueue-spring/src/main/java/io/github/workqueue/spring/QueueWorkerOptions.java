package io.github.workqueue.spring;

import java.time.Duration;

/**
 * How the worker containers as a whole run; a bean of this type replaces the
 * {@linkplain #DEFAULTS defaults}.
 *
 * @param shutdownTimeout how long shutdown waits for items in flight, in total for all
 * queues
 * @param virtualThreads whether workers run on virtual threads (JDK 21 and later)
 * @param keepAlive whether running workers keep the JVM alive until they are stopped, as
 * Spring Kafka's listener containers do, whatever kind of threads they run on
 */
public record QueueWorkerOptions(Duration shutdownTimeout, boolean virtualThreads, boolean keepAlive) {

	/** 30 seconds to finish at shutdown, platform threads, keeping the JVM alive. */
	public static final QueueWorkerOptions DEFAULTS = new QueueWorkerOptions(Duration.ofSeconds(30), false, true);

	public QueueWorkerOptions {
		if (shutdownTimeout.isNegative()) {
			throw new IllegalArgumentException("shutdownTimeout must not be negative, was " + shutdownTimeout);
		}
	}

	/**
	 * Options that keep the JVM alive while workers run.
	 * @param shutdownTimeout how long shutdown waits for items in flight
	 * @param virtualThreads whether workers run on virtual threads
	 */
	public QueueWorkerOptions(Duration shutdownTimeout, boolean virtualThreads) {
		this(shutdownTimeout, virtualThreads, true);
	}

}
