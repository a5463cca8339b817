package io.github.workqueue.autoconfigure.actuate;

import java.time.Duration;

import io.micrometer.core.instrument.MeterRegistry;

import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.actuate.autoconfigure.endpoint.condition.ConditionalOnAvailableEndpoint;
import org.springframework.boot.actuate.autoconfigure.endpoint.expose.EndpointExposure;
import org.springframework.boot.actuate.endpoint.annotation.Endpoint;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.context.annotation.Bean;
import org.springframework.core.env.Environment;

import io.github.workqueue.autoconfigure.WorkQueueAutoConfiguration;
import io.github.workqueue.autoconfigure.WorkQueueRegistry;
import io.github.workqueue.autoconfigure.metrics.WorkQueueMetricsAutoConfiguration;
import io.github.workqueue.spring.QueueWorkerRegistry;

/**
 * The {@code workqueues} Actuator endpoint, when Actuator is on the classpath and the
 * endpoint is available (exposed and not disabled, as for any endpoint).
 */
@AutoConfiguration(after = { WorkQueueAutoConfiguration.class, WorkQueueMetricsAutoConfiguration.class })
@ConditionalOnClass(Endpoint.class)
@ConditionalOnAvailableEndpoint(WorkQueuesEndpoint.class)
public final class WorkQueuesEndpointAutoConfiguration {

	@Bean
	@ConditionalOnMissingBean
	WorkQueuesEndpoint workQueuesEndpoint(WorkQueueRegistry queues, QueueWorkerRegistry workers,
			ObjectProvider<MeterRegistry> meterRegistry, ObjectProvider<RecentRates> recentRates,
			ObjectProvider<QueueDetailsContributor> contributors, Environment environment) {
		return new WorkQueuesEndpoint(queues, workers, meterRegistry.getIfUnique(), recentRates.getIfAvailable(),
				Binder.get(environment).bind("workqueue.health.stuck-threshold", Duration.class).orElse(null),
				contributors.orderedStream().toList());
	}

	@Bean
	@ConditionalOnMissingBean
	@ConditionalOnBean(WorkQueuesEndpoint.class)
	@ConditionalOnAvailableEndpoint(exposure = EndpointExposure.WEB)
	WorkQueuesEndpointWebExtension workQueuesEndpointWebExtension(WorkQueuesEndpoint endpoint) {
		return new WorkQueuesEndpointWebExtension(endpoint);
	}

}
