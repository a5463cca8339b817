package io.github.workqueue.autoconfigure.internal;

import java.util.List;

import org.jspecify.annotations.Nullable;

/**
 * The settings of one queue after inheritance from the defaults and validation.
 *
 * @param name the queue name
 * @param workers the number of worker threads
 * @param maxRetries the retries before an item is given up, or null to retry forever
 * @param notRetryable the exception types that are never retried
 * @param rateLimiter the limiter, validated but not yet built
 */
public record QueueSettings(String name, int workers, @Nullable Integer maxRetries,
		List<Class<? extends Throwable>> notRetryable, RateLimiterSpec rateLimiter) {

}
