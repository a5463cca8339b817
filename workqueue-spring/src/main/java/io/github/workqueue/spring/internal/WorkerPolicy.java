package io.github.workqueue.spring.internal;

import java.util.List;

import org.jspecify.annotations.Nullable;

/**
 * When a failed item is not retried: after {@code maxRetries} failed attempts in a row,
 * or at once for an exception of a not-retryable type.
 *
 * @param maxRetries retries before giving up, or null for no limit
 * @param notRetryable exception types never retried (subclasses too)
 */
record WorkerPolicy(@Nullable Integer maxRetries, List<Class<? extends Throwable>> notRetryable) {

	boolean isNotRetryable(Throwable failure) {
		return this.notRetryable.stream().anyMatch((type) -> type.isInstance(failure));
	}

	/** Whether an item that has failed this many times before may not be retried. */
	boolean retriesExhausted(int retriesSoFar) {
		return this.maxRetries != null && retriesSoFar >= this.maxRetries;
	}

	/** " of N" for a log line's attempt count, or nothing without a limit. */
	String ofMaxAttempts() {
		return (this.maxRetries != null) ? " of " + (this.maxRetries + 1) : "";
	}

}
