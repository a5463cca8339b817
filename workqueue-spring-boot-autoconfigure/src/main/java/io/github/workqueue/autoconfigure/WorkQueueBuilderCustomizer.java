package io.github.workqueue.autoconfigure;

import io.github.workqueue.core.WorkQueueBuilder;

/**
 * Adjusts the builder of an in-memory queue before it is built: another clock, metrics
 * provider or rate limiter, for one queue or all. Declare beans of this type; they run in
 * {@link org.springframework.core.Ordered order}. A Redis queue has a builder of another
 * type: {@link RedisQueueBuilderCustomizer} adjusts those.
 */
@FunctionalInterface
public interface WorkQueueBuilderCustomizer {

	/**
	 * Customizes the builder of the named queue.
	 * @param queueName the queue's name
	 * @param builder the builder, with the configured settings applied
	 */
	void customize(String queueName, WorkQueueBuilder builder);

}
