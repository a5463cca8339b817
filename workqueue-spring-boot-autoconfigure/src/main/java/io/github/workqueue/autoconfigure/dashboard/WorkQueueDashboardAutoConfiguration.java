package io.github.workqueue.autoconfigure.dashboard;

import io.micrometer.core.instrument.MeterRegistry;

import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.actuate.autoconfigure.endpoint.web.WebEndpointProperties;
import org.springframework.boot.actuate.autoconfigure.web.server.ConditionalOnManagementPort;
import org.springframework.boot.actuate.autoconfigure.web.server.ManagementPortType;
import org.springframework.boot.actuate.endpoint.EndpointAccessResolver;
import org.springframework.boot.actuate.endpoint.annotation.Endpoint;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBooleanProperty;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnWebApplication;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.context.annotation.Bean;
import org.springframework.web.servlet.function.RouterFunction;
import org.springframework.web.servlet.function.ServerResponse;

import io.github.workqueue.autoconfigure.WorkQueueAutoConfiguration;
import io.github.workqueue.autoconfigure.WorkQueueRegistry;
import io.github.workqueue.autoconfigure.actuate.RecentRates;
import io.github.workqueue.autoconfigure.actuate.WorkQueuesEndpointAutoConfiguration;
import io.github.workqueue.autoconfigure.actuate.WorkQueuesEndpointWebExtension;
import io.github.workqueue.autoconfigure.metrics.WorkQueueMetricsAutoConfiguration;

/**
 * The dashboard, when {@code workqueue.dashboard.enabled=true} in a servlet web
 * application with Actuator: a page at {@code workqueue.dashboard.path} (by default
 * {@code /actuator/workqueues-dashboard}) that shows and changes the queues through the
 * {@code workqueues} endpoint, and the sampling of the recent rates it charts. The page
 * is served where Actuator is: on the application's port, or on
 * {@code management.server.port} when one is set.
 */
@AutoConfiguration(after = { WorkQueueAutoConfiguration.class, WorkQueueMetricsAutoConfiguration.class,
		WorkQueuesEndpointAutoConfiguration.class })
@ConditionalOnBooleanProperty("workqueue.dashboard.enabled")
@ConditionalOnWebApplication(type = ConditionalOnWebApplication.Type.SERVLET)
@ConditionalOnClass({ Endpoint.class, RouterFunction.class })
@EnableConfigurationProperties(WorkQueueDashboardProperties.class)
public final class WorkQueueDashboardAutoConfiguration {

	/**
	 * The page on the application's port, where Actuator is too; with
	 * {@code management.server.port} it is served on that port instead
	 * ({@link WorkQueueDashboardChildContextConfiguration}).
	 */
	@Bean
	@ConditionalOnManagementPort(ManagementPortType.SAME)
	RouterFunction<ServerResponse> workQueueDashboardRoutes(WorkQueueDashboardProperties properties,
			ObjectProvider<WebEndpointProperties> webEndpoints,
			ObjectProvider<WorkQueuesEndpointWebExtension> exposedEndpoint,
			ObjectProvider<EndpointAccessResolver> accessResolver) {
		return DashboardRoutes.create(properties, webEndpoints, exposedEndpoint, accessResolver);
	}

	@Bean
	@ConditionalOnBean(MeterRegistry.class)
	RecentRates workQueueRecentRates(MeterRegistry meterRegistry, WorkQueueRegistry queues,
			WorkQueueDashboardProperties properties) {
		return new RecentRates(meterRegistry, queues::getQueues, properties.getSampleInterval(),
				properties.getHistory());
	}

	@Bean
	@ConditionalOnBean(RecentRates.class)
	RecentRatesSampler workQueueRecentRatesSampler(RecentRates rates, WorkQueueDashboardProperties properties) {
		return new RecentRatesSampler(rates, properties.getSampleInterval());
	}

}
