package io.github.workqueue.autoconfigure.internal;

import java.time.Duration;
import java.util.List;

import org.jspecify.annotations.Nullable;

import io.github.workqueue.autoconfigure.RateLimiterType;

/**
 * A validated rate limiter description with every inherited value filled in; what
 * {@link RateLimiterFactory} builds from.
 *
 * @param path the property path it was configured at
 * @param type the limiter type
 * @param baseDelay exponential first wait
 * @param maxDelay exponential longest wait
 * @param qps bucket tokens per second
 * @param burst bucket size
 * @param fastDelay fast-slow first waits
 * @param slowDelay fast-slow later waits
 * @param maxFastAttempts fast-slow number of fast attempts
 * @param maxWait cap on the wait, or null
 * @param bean name of the limiter bean, for type bean
 * @param limiters the limiters of max-of
 */
public record RateLimiterSpec(String path, RateLimiterType type, Duration baseDelay, Duration maxDelay, double qps,
		int burst, Duration fastDelay, Duration slowDelay, int maxFastAttempts, @Nullable Duration maxWait,
		@Nullable String bean, List<RateLimiterSpec> limiters) {

}
