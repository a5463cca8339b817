package io.github.workqueue.autoconfigure.dashboard;

import io.micrometer.core.instrument.MeterRegistry;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;

import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.actuate.autoconfigure.endpoint.web.WebEndpointProperties;
import org.springframework.boot.actuate.autoconfigure.web.server.ManagementPortType;
import org.springframework.boot.actuate.endpoint.Access;
import org.springframework.boot.actuate.endpoint.EndpointAccessResolver;
import org.springframework.boot.actuate.endpoint.EndpointId;
import org.springframework.boot.actuate.endpoint.annotation.Endpoint;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBooleanProperty;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnWebApplication;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.context.annotation.Bean;
import org.springframework.core.env.Environment;
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
 * {@code workqueues} endpoint, and the sampling of the recent rates it charts.
 */
@AutoConfiguration(after = { WorkQueueAutoConfiguration.class, WorkQueueMetricsAutoConfiguration.class,
		WorkQueuesEndpointAutoConfiguration.class })
@ConditionalOnBooleanProperty("workqueue.dashboard.enabled")
@ConditionalOnWebApplication(type = ConditionalOnWebApplication.Type.SERVLET)
@ConditionalOnClass({ Endpoint.class, RouterFunction.class })
@EnableConfigurationProperties(WorkQueueDashboardProperties.class)
public final class WorkQueueDashboardAutoConfiguration {

	private static final Log logger = LogFactory.getLog(WorkQueueDashboardAutoConfiguration.class);

	@Bean
	RouterFunction<ServerResponse> workQueueDashboardRoutes(WorkQueueDashboardProperties properties,
			ObjectProvider<WebEndpointProperties> webEndpoints,
			ObjectProvider<WorkQueuesEndpointWebExtension> exposedEndpoint,
			ObjectProvider<EndpointAccessResolver> accessResolver, Environment environment) {
		WebEndpointProperties web = webEndpoints.getIfAvailable(WebEndpointProperties::new);
		String basePath = web.getBasePath();
		String endpointPath = basePath + "/" + web.getPathMapping().getOrDefault("workqueues", "workqueues");
		String path = DashboardPath.resolve(properties.getPath(), basePath);
		if (ManagementPortType.get(environment) == ManagementPortType.DIFFERENT) {
			logger.warn("The workqueue dashboard at " + path + " reads the workqueues endpoint on the application's "
					+ "port, but management.server.port puts Actuator on another one: the page will not find it");
		}
		else if (exposedEndpoint.getIfAvailable() == null) {
			logger.warn("workqueue.dashboard.enabled is true but the workqueues endpoint is not exposed over HTTP: "
					+ "add workqueues to management.endpoints.web.exposure.include, or the dashboard at " + path
					+ " has nothing to show");
		}
		EndpointAccessResolver resolver = accessResolver.getIfAvailable();
		// The endpoint's own default is read-only (WorkQueuesEndpoint).
		boolean writes = resolver != null
				&& resolver.accessFor(EndpointId.of("workqueues"), Access.READ_ONLY) == Access.UNRESTRICTED;
		Integer deadLetterThreshold = properties.getDeadLetterThreshold();
		if (deadLetterThreshold != null && deadLetterThreshold < 0) {
			throw new IllegalArgumentException(
					"workqueue.dashboard.dead-letter-threshold must be 0 or more, was " + deadLetterThreshold);
		}
		return new DashboardPage(path, endpointPath, properties.getSampleInterval(), properties.getHistory(), writes,
				deadLetterThreshold)
			.routes();
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
