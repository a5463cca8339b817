package io.github.workqueue.spring;

import java.util.List;

import org.jspecify.annotations.Nullable;

/**
 * How the workers of one queue run, before what a {@link QueueWorker} annotation says
 * itself.
 *
 * @param workers the number of worker threads, at least 1
 * @param maxRetries failed attempts since the last success before an item is given up, or
 * null to retry for ever
 * @param notRetryable exception types that are never retried (subclasses too)
 */
public record WorkerSettings(int workers, @Nullable Integer maxRetries, List<Class<? extends Throwable>> notRetryable) {

	/** One worker, retrying for ever, every exception retryable. */
	public static final WorkerSettings DEFAULTS = new WorkerSettings(1, null, List.of());

	public WorkerSettings {
		if (workers < 1) {
			throw new IllegalArgumentException("workers must be at least 1, was " + workers);
		}
		if (maxRetries != null && maxRetries < 0) {
			throw new IllegalArgumentException("maxRetries must not be negative, was " + maxRetries);
		}
		notRetryable = List.copyOf(notRetryable);
	}

}
