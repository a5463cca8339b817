package io.github.workqueue.autoconfigure.internal;

import java.lang.reflect.Method;
import java.util.LinkedHashMap;
import java.util.Map;

import org.jspecify.annotations.Nullable;

import org.springframework.beans.factory.annotation.AnnotatedBeanDefinition;
import org.springframework.beans.factory.config.BeanDefinition;
import org.springframework.beans.factory.support.BeanDefinitionRegistry;
import org.springframework.core.annotation.AnnotatedElementUtils;
import org.springframework.core.env.Environment;
import org.springframework.core.type.MethodMetadata;
import org.springframework.util.ClassUtils;
import org.springframework.util.ReflectionUtils;

import io.github.workqueue.spring.QueueWorker;

/**
 * Finds the {@link QueueWorker} methods of the beans defined so far, from their bean
 * definitions, before any bean exists: the queue each one names and the type of the item
 * it takes. A bean whose class cannot be told from its definition is passed over; its
 * worker still gets its queue when the workers start.
 */
final class QueueWorkerScanner {

	private final Environment environment;

	private final @Nullable ClassLoader classLoader;

	QueueWorkerScanner(Environment environment, @Nullable ClassLoader classLoader) {
		this.environment = environment;
		this.classLoader = classLoader;
	}

	/**
	 * Returns the item type of each queue a worker method names.
	 * @param registry the bean definitions
	 * @return queue name to the (boxed) parameter type of its worker method
	 */
	Map<String, Class<?>> itemTypesByQueue(BeanDefinitionRegistry registry) {
		Map<String, Class<?>> found = new LinkedHashMap<>();
		for (String beanName : registry.getBeanDefinitionNames()) {
			BeanDefinition definition = registry.getBeanDefinition(beanName);
			if (definition.getRole() == BeanDefinition.ROLE_INFRASTRUCTURE) {
				continue;
			}
			Class<?> type = beanType(definition);
			if (type == null) {
				continue;
			}
			ReflectionUtils.doWithMethods(type, (method) -> {
				QueueWorker worker = AnnotatedElementUtils.findMergedAnnotation(method, QueueWorker.class);
				if (worker != null && method.getParameterCount() >= 1) {
					found.putIfAbsent(this.environment.resolvePlaceholders(worker.value()), itemType(method));
				}
			}, ReflectionUtils.USER_DECLARED_METHODS);
		}
		return found;
	}

	private static Class<?> itemType(Method method) {
		return ClassUtils.resolvePrimitiveIfNecessary(method.getParameterTypes()[0]);
	}

	private @Nullable Class<?> beanType(BeanDefinition definition) {
		String className = definition.getBeanClassName();
		if (definition instanceof AnnotatedBeanDefinition annotated) {
			MethodMetadata factoryMethod = annotated.getFactoryMethodMetadata();
			if (factoryMethod != null) {
				className = factoryMethod.getReturnTypeName();
			}
		}
		if (className == null || className.startsWith("org.springframework.")) {
			return null;
		}
		try {
			return ClassUtils.forName(className, this.classLoader);
		}
		catch (ClassNotFoundException | LinkageError ex) {
			return null;
		}
	}

}
