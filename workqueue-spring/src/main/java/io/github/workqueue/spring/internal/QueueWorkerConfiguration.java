package io.github.workqueue.spring.internal;

import org.springframework.beans.factory.ListableBeanFactory;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.beans.factory.config.BeanDefinition;
import org.springframework.context.ApplicationEventPublisher;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.context.annotation.Role;

import io.github.workqueue.core.Clock;
import io.github.workqueue.spring.EnableQueueWorkers;
import io.github.workqueue.spring.ItemProcessingListener;
import io.github.workqueue.spring.QueueResolver;
import io.github.workqueue.spring.QueueWorkerOptions;

/**
 * The beans behind {@link EnableQueueWorkers}: the annotation processor and the registry
 * that owns the worker containers.
 */
@Configuration(proxyBeanMethods = false)
@Role(BeanDefinition.ROLE_INFRASTRUCTURE)
public class QueueWorkerConfiguration {

	@Bean
	@Role(BeanDefinition.ROLE_INFRASTRUCTURE)
	static QueueWorkerAnnotationBeanPostProcessor queueWorkerAnnotationBeanPostProcessor() {
		return new QueueWorkerAnnotationBeanPostProcessor();
	}

	@Bean
	DefaultQueueWorkerRegistry queueWorkerRegistry(ObjectProvider<QueueResolver> resolver,
			ListableBeanFactory beanFactory, ObjectProvider<Clock> clock, ApplicationEventPublisher events,
			ObjectProvider<QueueWorkerOptions> options, ObjectProvider<WorkObserver> observer,
			ObjectProvider<ItemProcessingListener> listeners) {
		return new DefaultQueueWorkerRegistry(resolver.getIfAvailable(() -> new BeanQueueResolver(beanFactory)),
				clock.getIfAvailable(Clock::system), events, options.getIfAvailable(() -> QueueWorkerOptions.DEFAULTS),
				observer.getIfUnique(), listeners.orderedStream().toList());
	}

}
