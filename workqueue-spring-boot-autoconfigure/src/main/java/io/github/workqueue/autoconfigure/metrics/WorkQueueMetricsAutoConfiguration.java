package io.github.workqueue.autoconfigure.metrics;

import io.micrometer.core.instrument.MeterRegistry;

import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.micrometer.metrics.autoconfigure.CompositeMeterRegistryAutoConfiguration;
import org.springframework.boot.micrometer.metrics.autoconfigure.MetricsAutoConfiguration;
import org.springframework.context.annotation.Bean;

import io.github.workqueue.autoconfigure.WorkQueueAutoConfiguration;
import io.github.workqueue.spring.QueueWorkerRegistry;
import io.github.workqueue.core.metrics.MetricsProvider;

/**
 * Queue and worker metrics on Micrometer, when a {@link MeterRegistry} is present.
 */
@AutoConfiguration(after = { MetricsAutoConfiguration.class, CompositeMeterRegistryAutoConfiguration.class },
		before = WorkQueueAutoConfiguration.class)
@ConditionalOnClass({ MeterRegistry.class, MetricsAutoConfiguration.class })
@ConditionalOnBean(MeterRegistry.class)
public final class WorkQueueMetricsAutoConfiguration {

	@Bean
	@ConditionalOnMissingBean(MetricsProvider.class)
	MicrometerMetricsProvider workQueueMetricsProvider(MeterRegistry registry) {
		return new MicrometerMetricsProvider(registry);
	}

	@Bean
	QueueWorkerMetrics queueWorkerMetrics(QueueWorkerRegistry workers, MeterRegistry registry) {
		return new QueueWorkerMetrics(workers, registry);
	}

}
