package io.github.workqueue.autoconfigure;

import io.github.workqueue.redis.RedisQueueBuilder;

/**
 * Adjusts the builder of a Redis queue ({@code backend: redis}) before it is built, after
 * the configured settings were applied: what {@link WorkQueueBuilderCustomizer} does for
 * in-memory queues, whose builder is another type. Declare beans of this type; they run
 * in {@link org.springframework.core.Ordered order}.
 */
@FunctionalInterface
public interface RedisQueueBuilderCustomizer {

	/**
	 * Customizes the builder of the named Redis queue.
	 * @param queueName the queue's name
	 * @param builder the builder, with the configured settings applied
	 */
	void customize(String queueName, RedisQueueBuilder builder);

}
