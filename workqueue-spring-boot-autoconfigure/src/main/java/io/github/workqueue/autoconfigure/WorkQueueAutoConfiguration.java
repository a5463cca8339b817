package io.github.workqueue.autoconfigure;

import org.springframework.beans.factory.ListableBeanFactory;
import org.jspecify.annotations.Nullable;

import org.springframework.beans.factory.ObjectProvider;
import org.springframework.beans.factory.config.ConfigurableBeanFactory;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.boot.thread.Threading;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Import;
import org.springframework.core.env.Environment;

import io.github.workqueue.autoconfigure.internal.FairnessExtractors;
import io.github.workqueue.autoconfigure.internal.QueueBeanRegistrar;
import io.github.workqueue.autoconfigure.internal.QueueSettingsResolver;
import io.github.workqueue.autoconfigure.internal.RedisBackend;
import io.github.workqueue.autoconfigure.internal.RateLimiterFactory;
import io.github.workqueue.autoconfigure.internal.WorkQueueFactory;
import io.github.workqueue.spring.QueueWorkerOptions;
import io.github.workqueue.spring.internal.QueueWorkerConfiguration;
import io.github.workqueue.core.Clock;
import io.github.workqueue.core.metrics.MetricsProvider;

/**
 * Auto-configuration of the work queues: one bean per queue under
 * {@code workqueue.queues}, the {@link WorkQueueRegistry} (which is also where the
 * workers find their queues and settings), and the workers of {@code @QueueWorker}
 * methods, as {@code @EnableQueueWorkers} would set them up.
 *
 * <p>
 * Queues read time from the {@link Clock} bean if there is one (a
 * {@link io.github.workqueue.core.FakeClock} in tests), else the system clock, and report
 * to the {@link MetricsProvider} bean if there is one.
 */
@AutoConfiguration
@EnableConfigurationProperties(WorkQueueProperties.class)
@Import({ QueueBeanRegistrar.class, QueueWorkerConfiguration.class })
public final class WorkQueueAutoConfiguration {

	@Bean(QueueBeanRegistrar.FACTORY_BEAN_NAME)
	@ConditionalOnMissingBean
	WorkQueueFactory workQueueFactory(WorkQueueProperties properties, ListableBeanFactory beanFactory,
			ObjectProvider<Clock> clock, ObjectProvider<MetricsProvider> metricsProvider,
			ObjectProvider<WorkQueueBuilderCustomizer> customizers, ObjectProvider<RedisBackend> redis) {
		Clock queueClock = clock.getIfAvailable(Clock::system);
		return new WorkQueueFactory(
				new QueueSettingsResolver(properties, beanFactory::containsBean, beanClassLoader(beanFactory)),
				new RateLimiterFactory(queueClock, beanFactory), queueClock,
				metricsProvider.getIfAvailable(MetricsProvider::noop), customizers.orderedStream().toList(),
				redis::getIfAvailable, new FairnessExtractors(beanFactory));
	}

	@Bean
	@ConditionalOnMissingBean
	WorkQueueRegistry workQueueRegistry(ListableBeanFactory beanFactory, WorkQueueFactory workQueueFactory) {
		return new WorkQueueRegistry(beanFactory, workQueueFactory);
	}

	@Bean
	@ConditionalOnMissingBean
	QueueWorkerOptions queueWorkerOptions(WorkQueueProperties properties, Environment environment) {
		return new QueueWorkerOptions(properties.getShutdown().getTimeout(), Threading.VIRTUAL.isActive(environment),
				properties.isKeepAlive());
	}

	private static @Nullable ClassLoader beanClassLoader(ListableBeanFactory beanFactory) {
		return (beanFactory instanceof ConfigurableBeanFactory configurable) ? configurable.getBeanClassLoader()
				: WorkQueueAutoConfiguration.class.getClassLoader();
	}

}
