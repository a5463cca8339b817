package io.github.workqueue.spring;

import io.github.workqueue.core.RateLimitingQueue;

/**
 * Where the workers of {@link QueueWorker} methods find their queues and per-queue
 * settings. Without a bean of this type, a worker takes items from the
 * {@link RateLimitingQueue} bean named after its queue, with {@link WorkerSettings}'s
 * defaults; the Spring Boot starter provides one backed by {@code workqueue.*}
 * properties.
 */
public interface QueueResolver {

	/**
	 * Returns the queue that the worker of that name takes items from.
	 * @param queueName the name given to {@link QueueWorker}
	 * @return the queue
	 * @throws InvalidWorkQueueConfigurationException if there is no such queue
	 */
	RateLimitingQueue<Object> queue(String queueName);

	/**
	 * Returns the settings of the queue's workers.
	 * @param queueName the name given to {@link QueueWorker}
	 * @return the settings
	 */
	default WorkerSettings settings(String queueName) {
		return WorkerSettings.DEFAULTS;
	}

}
