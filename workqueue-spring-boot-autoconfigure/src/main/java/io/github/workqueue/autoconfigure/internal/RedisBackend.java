package io.github.workqueue.autoconfigure.internal;

import org.jspecify.annotations.Nullable;

import org.springframework.util.ClassUtils;

import io.github.workqueue.core.FairnessKeyExtractor;
import io.github.workqueue.core.RateLimitingQueue;
import io.github.workqueue.core.metrics.MetricsProvider;
import io.github.workqueue.core.ratelimit.RateLimiter;

/**
 * Makes the queues whose backend is Redis. Only an implementation needs the Redis
 * classes, which are optional: {@link #isAvailable} tells whether they are there.
 */
public interface RedisBackend {

	/**
	 * Makes a Redis queue.
	 * @param <T> the item type
	 * @param settings the queue's resolved settings
	 * @param itemType the item type, or {@code null} for strings
	 * @param rateLimiter the limiter, of the core's kinds
	 * @param metricsProvider where this instance's metrics go
	 * @param fairness the queue's fairness key extractor, or {@code null} for none
	 * @return the queue
	 */
	<T> RateLimitingQueue<T> create(QueueSettings settings, @Nullable Class<?> itemType, RateLimiter<?> rateLimiter,
			MetricsProvider metricsProvider, @Nullable FairnessKeyExtractor<Object> fairness);

	/**
	 * Tells whether workqueue-redis and Spring Data Redis's Lettuce support are on the
	 * class path.
	 * @param classLoader the class loader to look in
	 * @return whether Redis queues can be made
	 */
	static boolean isAvailable(@Nullable ClassLoader classLoader) {
		return ClassUtils.isPresent("io.github.workqueue.redis.RedisQueue", classLoader) && ClassUtils
			.isPresent("org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory", classLoader);
	}

}
