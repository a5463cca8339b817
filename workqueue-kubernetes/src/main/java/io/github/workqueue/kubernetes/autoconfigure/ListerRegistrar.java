package io.github.workqueue.kubernetes.autoconfigure;

import java.util.Map;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.HasMetadata;

import org.springframework.beans.factory.BeanFactory;
import org.springframework.beans.factory.BeanFactoryAware;
import org.springframework.beans.factory.support.BeanDefinitionRegistry;
import org.springframework.beans.factory.support.RootBeanDefinition;
import org.springframework.boot.context.properties.bind.Bindable;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.context.EnvironmentAware;
import org.springframework.context.annotation.ImportBeanDefinitionRegistrar;
import org.springframework.core.ResolvableType;
import org.springframework.core.env.Environment;
import org.springframework.core.type.AnnotationMetadata;

import io.github.workqueue.kubernetes.KubernetesLister;
import io.github.workqueue.kubernetes.WorkQueueKubernetesProperties.Informer;
import io.github.workqueue.kubernetes.internal.KubernetesInformers;

/**
 * Registers each informer's lister as the bean {@code <queue>Lister}, typed
 * {@code KubernetesLister<Model>} by the informer's model class (or
 * {@link GenericKubernetesResource}), so that a worker injects the cache it reads by type
 * or by name.
 */
final class ListerRegistrar implements ImportBeanDefinitionRegistrar, EnvironmentAware, BeanFactoryAware {

	private Environment environment;

	private BeanFactory beanFactory;

	@Override
	public void setEnvironment(Environment environment) {
		this.environment = environment;
	}

	@Override
	public void setBeanFactory(BeanFactory beanFactory) {
		this.beanFactory = beanFactory;
	}

	@Override
	public void registerBeanDefinitions(AnnotationMetadata metadata, BeanDefinitionRegistry registry) {
		Map<String, Informer> informers = Binder.get(this.environment)
			.bind("workqueue.kubernetes.informers", Bindable.mapOf(String.class, Informer.class))
			.orElse(Map.of());
		informers.forEach((queueName, informer) -> {
			Class<? extends HasMetadata> model = (informer.getModelClass() != null) ? informer.getModelClass()
					: GenericKubernetesResource.class;
			RootBeanDefinition definition = new RootBeanDefinition(KubernetesLister.class);
			definition.setTargetType(ResolvableType.forClassWithGenerics(KubernetesLister.class, model));
			definition.setInstanceSupplier(() -> this.beanFactory.getBean(KubernetesInformers.class).feed(queueName));
			registry.registerBeanDefinition(queueName + "Lister", definition);
		});
	}

}
