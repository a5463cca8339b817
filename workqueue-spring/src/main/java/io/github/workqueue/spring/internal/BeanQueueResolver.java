package io.github.workqueue.spring.internal;

import org.springframework.beans.factory.ListableBeanFactory;

import io.github.workqueue.core.RateLimitingQueue;
import io.github.workqueue.spring.InvalidWorkQueueConfigurationException;
import io.github.workqueue.spring.QueueResolver;

/**
 * The {@link QueueResolver} of plain Spring: the {@link RateLimitingQueue} bean named
 * after the queue, default settings.
 */
final class BeanQueueResolver implements QueueResolver {

	private final ListableBeanFactory beanFactory;

	BeanQueueResolver(ListableBeanFactory beanFactory) {
		this.beanFactory = beanFactory;
	}

	@Override
	@SuppressWarnings("unchecked")
	public RateLimitingQueue<Object> queue(String queueName) {
		if (!this.beanFactory.containsBean(queueName)
				|| !this.beanFactory.isTypeMatch(queueName, RateLimitingQueue.class)) {
			throw InvalidWorkQueueConfigurationException.forQueue(queueName,
					"no RateLimitingQueue bean is named '" + queueName + "'",
					"Define a RateLimitingQueue bean named '" + queueName + "' (WorkQueue.builder().name(\"" + queueName
							+ "\").buildRateLimiting()), or a QueueResolver bean that provides it.");
		}
		return this.beanFactory.getBean(queueName, RateLimitingQueue.class);
	}

}
