package io.github.workqueue.core.backoff;

import java.time.Duration;

/**
 * Hands out the waits of a retry loop, as apimachinery's {@code BackoffManager}.
 *
 * <p>
 * <b>Concurrency.</b> Implementations here are thread-safe.
 */
@FunctionalInterface
public interface BackoffManager {

	/**
	 * Returns how long to wait before the next attempt.
	 * @return the wait
	 */
	Duration next();

}
