package io.github.workqueue.autoconfigure.internal;

import org.jspecify.annotations.Nullable;

import io.github.workqueue.core.FairnessKeyExtractor;
import io.github.workqueue.core.RateLimitingQueue;
import io.github.workqueue.core.metrics.MetricsProvider;
import io.github.workqueue.core.ratelimit.RateLimiter;
import io.github.workqueue.spring.InvalidWorkQueueConfigurationException;

/**
 * The backend when the application's {@code RedisConnectionFactory} is not Lettuce's: an
 * application whose queues all live in memory starts as before, and a queue declared on
 * Redis fails startup saying what was found and what it needs.
 *
 * <p>
 * <b>Concurrency.</b> Immutable.
 */
public final class UnsupportedRedisBackend implements RedisBackend {

	private final String found;

	/**
	 * @param found the connection factory's class name
	 */
	public UnsupportedRedisBackend(String found) {
		this.found = found;
	}

	@Override
	public <T> RateLimitingQueue<T> create(QueueSettings settings, @Nullable Class<?> itemType,
			RateLimiter<?> rateLimiter, MetricsProvider metricsProvider,
			@Nullable FairnessKeyExtractor<Object> fairness) {
		throw InvalidWorkQueueConfigurationException.forProperty(settings.backendPath(), "redis",
				"needs Spring Data Redis's Lettuce client, but the application's RedisConnectionFactory is a "
						+ this.found,
				"Use Lettuce (spring.data.redis.client-type=lettuce, Spring Boot's default, or a "
						+ "LettuceConnectionFactory bean), or remove the property to keep the queue in memory.");
	}

}
