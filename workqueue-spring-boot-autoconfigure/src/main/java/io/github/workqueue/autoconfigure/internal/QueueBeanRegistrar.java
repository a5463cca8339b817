package io.github.workqueue.autoconfigure.internal;

import java.lang.reflect.Field;
import java.lang.reflect.Modifier;
import java.util.Arrays;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;

import org.jspecify.annotations.Nullable;

import org.springframework.beans.factory.BeanClassLoaderAware;
import org.springframework.beans.factory.config.BeanDefinition;
import org.springframework.beans.factory.support.BeanDefinitionRegistry;
import org.springframework.beans.factory.support.RootBeanDefinition;
import org.springframework.boot.context.properties.NestedConfigurationProperty;
import org.springframework.boot.context.properties.bind.AbstractBindHandler;
import org.springframework.boot.context.properties.bind.BindContext;
import org.springframework.boot.context.properties.bind.BindException;
import org.springframework.boot.context.properties.bind.BindHandler;
import org.springframework.boot.context.properties.bind.Bindable;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.boot.context.properties.bind.DataObjectPropertyName;

import org.springframework.boot.context.properties.source.ConfigurationProperty;
import org.springframework.boot.context.properties.source.ConfigurationPropertyName;
import org.springframework.boot.context.properties.source.ConfigurationPropertySource;
import org.springframework.boot.context.properties.source.ConfigurationPropertySources;
import org.springframework.boot.context.properties.source.IterableConfigurationPropertySource;
import org.springframework.context.EnvironmentAware;
import org.springframework.context.annotation.ImportBeanDefinitionRegistrar;
import org.springframework.core.ResolvableType;
import org.springframework.core.env.Environment;
import org.springframework.core.type.AnnotationMetadata;

import io.github.workqueue.autoconfigure.RateLimiterProperties;
import io.github.workqueue.autoconfigure.WorkQueueProperties;
import io.github.workqueue.core.RateLimitingQueue;
import io.github.workqueue.spring.InvalidWorkQueueConfigurationException;

/**
 * Registers one bean per queue, named after it and made by the {@link WorkQueueFactory}:
 * every queue under {@code workqueue.queues} and every queue a {@code @QueueWorker}
 * method names, so that a queue only a worker names can be injected too. A bean the
 * application already defines under that name wins if it may be a queue; one that cannot
 * fails startup ({@link QueueNameClashCheck}). Validates the whole configuration first,
 * so that a mistake fails startup before any bean is created.
 */
public class QueueBeanRegistrar implements ImportBeanDefinitionRegistrar, EnvironmentAware, BeanClassLoaderAware {

	/** The name of the {@link WorkQueueFactory} bean the queue beans are made by. */
	public static final String FACTORY_BEAN_NAME = "workQueueFactory";

	private static final ConfigurationPropertyName SHUTDOWN = ConfigurationPropertyName.of("workqueue.shutdown");

	private static final List<ConfigurationPropertyName> OWNED = List.of(
			ConfigurationPropertyName.of("workqueue.defaults"), ConfigurationPropertyName.of("workqueue.queues"),
			SHUTDOWN);

	private Environment environment;

	private @Nullable ClassLoader classLoader;

	@Override
	public void setBeanClassLoader(ClassLoader classLoader) {
		this.classLoader = classLoader;
	}

	@Override
	public void setEnvironment(Environment environment) {
		this.environment = environment;
	}

	@Override
	public void registerBeanDefinitions(AnnotationMetadata metadata, BeanDefinitionRegistry registry) {
		WorkQueueProperties properties = bind(this.environment);
		new QueueSettingsResolver(properties, registry::containsBeanDefinition, this.classLoader).validateAll();
		Map<String, Class<?>> workerItemTypes = new QueueWorkerScanner(this.environment, this.classLoader)
			.itemTypesByQueue(registry);
		Map<String, @Nullable Class<?>> queues = new LinkedHashMap<>();
		properties.getQueues().forEach((name, queue) -> queues.put(name, queue.getItemType()));
		workerItemTypes.forEach((name, itemType) -> {
			UndeclaredQueueWarning.warnIfUndeclared(name, properties.getQueues().keySet());
			queues.put(name, itemType);
		});
		Set<String> taken = new HashSet<>();
		queues.forEach((name, itemType) -> {
			if (!registry.containsBeanDefinition(name)) {
				registry.registerBeanDefinition(name, queueDefinition(name, itemType));
			}
			else {
				taken.add(name);
			}
		});
		if (!taken.isEmpty()) {
			RootBeanDefinition check = new RootBeanDefinition(QueueNameClashCheck.class);
			check.getConstructorArgumentValues().addIndexedArgumentValue(0, taken);
			check.setRole(BeanDefinition.ROLE_INFRASTRUCTURE);
			registry.registerBeanDefinition(QueueNameClashCheck.class.getName(), check);
		}
	}

	/**
	 * A queue bean made by the {@link WorkQueueFactory}, typed
	 * {@code RateLimitingQueue<itemType>} when the item type is known, so that it can be
	 * injected by its generic type and a mismatched injection point fails at startup.
	 */
	private static RootBeanDefinition queueDefinition(String name, @Nullable Class<?> itemType) {
		RootBeanDefinition definition = new RootBeanDefinition();
		definition.setFactoryBeanName(FACTORY_BEAN_NAME);
		definition.setFactoryMethodName("create");
		definition.getConstructorArgumentValues().addIndexedArgumentValue(0, name);
		definition.getConstructorArgumentValues().addIndexedArgumentValue(1, itemType, Class.class.getName());
		definition.setDestroyMethodName("shutDown");
		if (itemType != null) {
			definition.setTargetType(ResolvableType.forClassWithGenerics(RateLimitingQueue.class, itemType));
		}
		return definition;
	}

	/**
	 * Binds {@code workqueue.*}, rejecting a property under {@code workqueue.defaults},
	 * {@code workqueue.queues} or {@code workqueue.shutdown} that binds to nothing (a
	 * typo such as {@code workqueue.queues.orders.wrokers}) with the property's name.
	 * Other {@code workqueue.*} properties belong to other configuration classes.
	 * @param environment the environment
	 * @return the properties
	 */
	static WorkQueueProperties bind(Environment environment) {
		Set<ConfigurationPropertyName> bound = new HashSet<>();
		BindHandler recording = new AbstractBindHandler() {

			@Override
			public @Nullable Object onSuccess(ConfigurationPropertyName name, Bindable<?> target, BindContext context,
					Object result) {
				bound.add(name);
				return result;
			}

		};
		WorkQueueProperties properties;
		try {
			properties = Binder.get(environment)
				.bindOrCreate("workqueue", Bindable.of(WorkQueueProperties.class), recording);
		}
		catch (BindException ex) {
			throw notOneOfItsValues(ex);
		}
		for (ConfigurationPropertySource source : ConfigurationPropertySources.get(environment)) {
			if (source instanceof IterableConfigurationPropertySource iterable) {
				iterable.stream()
					.filter((name) -> OWNED.stream().anyMatch((owned) -> owned.isAncestorOf(name)))
					.filter((name) -> !bound.contains(name))
					.findFirst()
					.ifPresent((name) -> {
						throw InvalidWorkQueueConfigurationException.forProperty(name.toString(),
								String.valueOf(source.getConfigurationProperty(name).getValue()),
								"is not a workqueue property", "Remove it or correct its name. " + knownBeside(name));
					});
			}
		}
		return properties;
	}

	/**
	 * A value that is none of an enum property's ({@code backend},
	 * {@code rate-limiter.type}) as an error that names the property and lists the values
	 * as they are written; any other binding failure as it is.
	 */
	private static RuntimeException notOneOfItsValues(BindException ex) {
		Class<?> type = ex.getTarget().getType().resolve();
		ConfigurationProperty property = ex.getProperty();
		if (type == null || !type.isEnum() || property == null) {
			return ex;
		}
		return InvalidWorkQueueConfigurationException.forProperty(property.getName().toString(),
				String.valueOf(property.getValue()), "is not one of its values",
				"Set " + property.getName() + " to one of: " + EnumValues.of(type) + ".");
	}

	/**
	 * The properties that may stand where the unknown one does: a rate limiter's under
	 * {@code rate-limiter}, the shutdown's under {@code workqueue.shutdown}, else a
	 * queue's. Read from the properties' classes, so that the list is never behind them.
	 */
	private static String knownBeside(ConfigurationPropertyName unknown) {
		if (SHUTDOWN.isAncestorOf(unknown)) {
			return "workqueue.shutdown takes " + namesOf(WorkQueueProperties.Shutdown.class) + ".";
		}
		for (int i = 0; i < unknown.getNumberOfElements(); i++) {
			if (unknown.getElement(i, ConfigurationPropertyName.Form.DASHED).equals("rate-limiter")) {
				return "A rate limiter takes " + namesOf(RateLimiterProperties.class) + ".";
			}
		}
		return "A queue takes " + namesOf(WorkQueueProperties.QueueProperties.class) + ".";
	}

	/**
	 * The property names of a properties class, dashed as Spring Boot binds them, in
	 * alphabetical order (the order of a class's fields is not specified).
	 */
	private static String namesOf(Class<?> type) {
		return Arrays.stream(type.getDeclaredFields())
			.filter((field) -> !Modifier.isStatic(field.getModifiers()))
			.map((field) -> DataObjectPropertyName.toDashedForm(field.getName()) + (isNested(field) ? ".*" : ""))
			.sorted()
			.collect(Collectors.joining(", "));
	}

	/**
	 * Whether a field is a group of properties of its own: a nested class of the
	 * properties (not an enum's value), or a class marked as nested where it is used.
	 */
	private static boolean isNested(Field field) {
		Class<?> type = field.getType();
		return (type.getEnclosingClass() == WorkQueueProperties.class && !type.isEnum())
				|| field.isAnnotationPresent(NestedConfigurationProperty.class);
	}

}
