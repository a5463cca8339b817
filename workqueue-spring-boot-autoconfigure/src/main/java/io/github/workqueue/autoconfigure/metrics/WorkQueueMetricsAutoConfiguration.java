package io.github.workqueue.autoconfigure.metrics;

import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.config.MeterFilter;

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

	/**
	 * Drops the bucket gauges that registries which show a timer's buckets as gauges (the
	 * simple registry, for one) would give one name twice: they write {@code le} with six
	 * decimals, so client-go's 10 ns and 100 ns buckets both read {@code le=0}, and the
	 * second registration is refused with a warning at startup. Prometheus keeps every
	 * bucket: its histograms are not gauges.
	 * @return the filter, applied by Spring Boot to every registry
	 */
	@Bean
	MeterFilter workQueueSubMicrosecondBucketGauges() {
		return MeterFilter.deny((id) -> id.getName().startsWith("workqueue.") && id.getName().endsWith(".histogram")
				&& "0".equals(id.getTag("le")));
	}

	@Bean
	QueueWorkerMetrics queueWorkerMetrics(QueueWorkerRegistry workers, MeterRegistry registry) {
		return new QueueWorkerMetrics(workers, registry);
	}

}
