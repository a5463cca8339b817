package io.github.workqueue.autoconfigure.internal;

import java.util.Set;

import org.springframework.beans.factory.config.BeanFactoryPostProcessor;
import org.springframework.beans.factory.config.ConfigurableListableBeanFactory;

import io.github.workqueue.core.RateLimitingQueue;
import io.github.workqueue.spring.InvalidWorkQueueConfigurationException;

/**
 * Fails startup when a bean of the application's takes a queue's name but cannot be a
 * queue (a {@code @Service class Orders} named {@code orders}): the queue bean is not
 * registered under a name already taken ({@link QueueBeanRegistrar}), so without this
 * check the queue would be missing and an injection of it would fail later with a message
 * that says nothing of why. A bean whose type may be a queue (a {@code RateLimitingQueue}
 * of the application's own, or a factory method declared to return {@code Object})
 * replaces the queue, as documented.
 *
 * <p>
 * <b>Concurrency.</b> Immutable; Spring calls it once, before any bean is created.
 */
final class QueueNameClashCheck implements BeanFactoryPostProcessor {

	private final Set<String> queueNames;

	QueueNameClashCheck(Set<String> queueNames) {
		this.queueNames = Set.copyOf(queueNames);
	}

	@Override
	public void postProcessBeanFactory(ConfigurableListableBeanFactory beanFactory) {
		for (String name : this.queueNames) {
			Class<?> type = beanFactory.getType(name, false);
			if (type != null && !RateLimitingQueue.class.isAssignableFrom(type)
					&& !type.isAssignableFrom(RateLimitingQueue.class)) {
				throw InvalidWorkQueueConfigurationException.forQueue(name,
						"the bean '" + name + "' (" + type.getName() + ") has the queue's name but is not a queue, "
								+ "so the queue bean cannot be registered",
						"Give that bean another name (for example @Service(\"" + name + "Service\")), or rename "
								+ "the queue; to replace the queue with your own, declare a RateLimitingQueue bean "
								+ "named '" + name + "'.");
			}
		}
	}

}
