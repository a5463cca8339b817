package io.github.workqueue.autoconfigure.internal;

import org.springframework.beans.factory.support.BeanDefinitionRegistry;
import org.springframework.beans.factory.support.RootBeanDefinition;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.context.EnvironmentAware;
import org.springframework.context.annotation.ImportBeanDefinitionRegistrar;
import org.springframework.core.env.Environment;
import org.springframework.core.type.AnnotationMetadata;

import io.github.workqueue.autoconfigure.WorkQueueProperties;

/**
 * Registers one bean per queue under {@code workqueue.queues}, named after its key and
 * made by the {@link WorkQueueFactory}; a bean the application already defines under that
 * name wins. Validates the whole configuration first, so that a mistake fails startup
 * before any bean is created.
 */
public class QueueBeanRegistrar implements ImportBeanDefinitionRegistrar, EnvironmentAware {

	/** The name of the {@link WorkQueueFactory} bean the queue beans are made by. */
	public static final String FACTORY_BEAN_NAME = "workQueueFactory";

	private Environment environment;

	@Override
	public void setEnvironment(Environment environment) {
		this.environment = environment;
	}

	@Override
	public void registerBeanDefinitions(AnnotationMetadata metadata, BeanDefinitionRegistry registry) {
		WorkQueueProperties properties = Binder.get(this.environment)
			.bindOrCreate("workqueue", WorkQueueProperties.class);
		new QueueSettingsResolver(properties, registry::containsBeanDefinition).validateAll();
		for (String name : properties.getQueues().keySet()) {
			if (registry.containsBeanDefinition(name)) {
				continue;
			}
			RootBeanDefinition definition = new RootBeanDefinition();
			definition.setFactoryBeanName(FACTORY_BEAN_NAME);
			definition.setFactoryMethodName("create");
			definition.getConstructorArgumentValues().addIndexedArgumentValue(0, name);
			definition.setDestroyMethodName("shutDown");
			registry.registerBeanDefinition(name, definition);
		}
	}

}
