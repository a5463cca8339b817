package io.github.workqueue.autoconfigure.internal;

import org.jspecify.annotations.Nullable;

import org.springframework.beans.factory.BeanFactory;
import org.springframework.beans.factory.config.ConfigurableListableBeanFactory;
import org.springframework.core.ResolvableType;
import org.springframework.util.ClassUtils;

import io.github.workqueue.core.FairnessKeyExtractor;
import io.github.workqueue.spring.InvalidWorkQueueConfigurationException;

/**
 * Finds the {@link FairnessKeyExtractor} bean a queue names ({@code fairness}) and checks
 * that it accepts the queue's items.
 *
 * <p>
 * <b>Concurrency.</b> Stateless; thread-safe.
 */
public final class FairnessExtractors {

	private final BeanFactory beanFactory;

	public FairnessExtractors(BeanFactory beanFactory) {
		this.beanFactory = beanFactory;
	}

	/**
	 * Returns the queue's extractor.
	 * @param settings the queue's settings
	 * @param itemType the queue's item type, or null when unknown
	 * @return the extractor, or null when the queue has no fairness
	 * @throws InvalidWorkQueueConfigurationException if the bean is no extractor, or one
	 * of another item type
	 */
	@SuppressWarnings("unchecked")
	public @Nullable FairnessKeyExtractor<Object> forQueue(QueueSettings settings, @Nullable Class<?> itemType) {
		String name = settings.fairness();
		if (name == null) {
			return null;
		}
		Object bean = this.beanFactory.getBean(name);
		if (!(bean instanceof FairnessKeyExtractor<?>)) {
			throw InvalidWorkQueueConfigurationException.forProperty(settings.fairnessPath(), name,
					"names a bean of type " + bean.getClass().getName() + ", not a FairnessKeyExtractor",
					"Set it to the name of a bean that implements " + FairnessKeyExtractor.class.getName() + ".");
		}
		Class<?> accepted = acceptedType(name, bean);
		if (itemType != null && accepted != null && !ClassUtils.isAssignable(accepted, itemType)) {
			throw InvalidWorkQueueConfigurationException.forProperty(settings.fairnessPath(), name,
					"is a FairnessKeyExtractor<" + accepted.getName() + ">, but queue '" + settings.name()
							+ "' holds items of type " + itemType.getName(),
					"Name an extractor of " + itemType.getName() + " (or of a supertype), or change the queue's "
							+ "item type.");
		}
		return (FairnessKeyExtractor<Object>) bean;
	}

	/** The extractor's item type as its bean definition or class declares it, or null. */
	private @Nullable Class<?> acceptedType(String name, Object bean) {
		ResolvableType declared = ResolvableType.NONE;
		if (this.beanFactory instanceof ConfigurableListableBeanFactory listable
				&& listable.containsBeanDefinition(name)) {
			declared = listable.getMergedBeanDefinition(name).getResolvableType();
		}
		Class<?> accepted = declared.as(FairnessKeyExtractor.class).resolveGeneric(0);
		if (accepted == null) {
			accepted = ResolvableType.forClass(bean.getClass()).as(FairnessKeyExtractor.class).resolveGeneric(0);
		}
		return accepted;
	}

}
