package io.github.workqueue.spring.internal;

import java.lang.reflect.Method;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import org.jspecify.annotations.Nullable;

import org.springframework.aop.support.AopUtils;
import org.springframework.beans.BeansException;
import org.springframework.beans.factory.BeanFactory;
import org.springframework.beans.factory.BeanFactoryAware;
import org.springframework.beans.factory.SmartInitializingSingleton;
import org.springframework.beans.factory.config.BeanPostProcessor;
import org.springframework.beans.factory.config.ConfigurableBeanFactory;
import org.springframework.core.MethodIntrospector;
import org.springframework.core.annotation.AnnotatedElementUtils;

import io.github.workqueue.spring.InvalidWorkQueueConfigurationException;
import io.github.workqueue.spring.QueueWorker;

/**
 * Finds {@link QueueWorker} methods on every bean, validates them, and hands them to the
 * {@link DefaultQueueWorkerRegistry} once all singletons exist (so that looking the
 * registry up does not create beans early).
 */
public class QueueWorkerAnnotationBeanPostProcessor
		implements BeanPostProcessor, BeanFactoryAware, SmartInitializingSingleton {

	private @Nullable ConfigurableBeanFactory beanFactory;

	private final List<QueueWorkerEndpoint> endpoints = new ArrayList<>();

	@Override
	public void setBeanFactory(BeanFactory beanFactory) {
		this.beanFactory = (ConfigurableBeanFactory) beanFactory;
	}

	@Override
	public Object postProcessAfterInitialization(Object bean, String beanName) throws BeansException {
		Class<?> targetClass = AopUtils.getTargetClass(bean);
		Map<Method, QueueWorker> annotated = MethodIntrospector.selectMethods(targetClass,
				(MethodIntrospector.MetadataLookup<QueueWorker>) (method) -> AnnotatedElementUtils
					.findMergedAnnotation(method, QueueWorker.class));
		annotated.forEach((method, annotation) -> {
			Method invocable = AopUtils.selectInvocableMethod(method, bean.getClass());
			QueueWorkerMethod workerMethod = QueueWorkerMethod.of(bean, invocable, targetClass);
			String queueName = resolve(annotation.value(), "value", workerMethod);
			if (queueName.isBlank()) {
				throw InvalidWorkQueueConfigurationException.forMethod(workerMethod.toString(),
						"its @QueueWorker names no queue", "Set @QueueWorker(\"<queue name>\").");
			}
			Integer workers = parseWorkers(annotation.workers(), workerMethod);
			synchronized (this.endpoints) {
				this.endpoints
					.add(new QueueWorkerEndpoint(queueName, workerMethod, workers, List.of(annotation.notRetryable())));
			}
		});
		return bean;
	}

	private @Nullable Integer parseWorkers(String value, QueueWorkerMethod method) {
		String resolved = resolve(value, "workers", method);
		if (resolved.isBlank()) {
			return null;
		}
		int workers;
		try {
			workers = Integer.parseInt(resolved.trim());
		}
		catch (NumberFormatException ex) {
			throw InvalidWorkQueueConfigurationException.forMethod(method.toString(),
					"@QueueWorker(workers = \"" + value + "\") resolves to '" + resolved + "', not a number",
					"Set workers to a whole number of at least 1, or a placeholder that resolves to one.");
		}
		if (workers < 1) {
			throw InvalidWorkQueueConfigurationException.forMethod(method.toString(),
					"@QueueWorker(workers = \"" + value + "\") resolves to " + workers, "Set workers to at least 1.");
		}
		return workers;
	}

	private String resolve(String value, String attribute, QueueWorkerMethod method) {
		String resolved;
		try {
			resolved = (this.beanFactory != null) ? this.beanFactory.resolveEmbeddedValue(value) : value;
		}
		catch (IllegalArgumentException ex) {
			throw unresolvable(attribute, value, method, ex.getMessage());
		}
		if (resolved == null) {
			return value;
		}
		if (resolved.contains("${")) {
			// A lenient resolver leaves what it cannot resolve in place.
			throw unresolvable(attribute, value, method, "'" + resolved + "' is left unresolved");
		}
		return resolved;
	}

	private static InvalidWorkQueueConfigurationException unresolvable(String attribute, String value,
			QueueWorkerMethod method, @Nullable String reason) {
		return InvalidWorkQueueConfigurationException.forMethod(method.toString(),
				"@QueueWorker(" + attribute + " = \"" + value + "\") cannot be resolved: " + reason,
				"Define the property the placeholder names, or give it a default, as in ${name:default}.");
	}

	@Override
	public void afterSingletonsInstantiated() {
		if (this.beanFactory == null) {
			return;
		}
		DefaultQueueWorkerRegistry registry = this.beanFactory.getBean(DefaultQueueWorkerRegistry.class);
		synchronized (this.endpoints) {
			this.endpoints.forEach(registry::register);
			this.endpoints.clear();
		}
	}

}
