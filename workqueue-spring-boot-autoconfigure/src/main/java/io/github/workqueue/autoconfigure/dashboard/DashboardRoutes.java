package io.github.workqueue.autoconfigure.dashboard;

import java.time.Duration;

import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;

import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.actuate.autoconfigure.endpoint.web.WebEndpointProperties;
import org.springframework.boot.actuate.endpoint.Access;
import org.springframework.boot.actuate.endpoint.EndpointAccessResolver;
import org.springframework.boot.actuate.endpoint.EndpointId;
import org.springframework.web.servlet.function.RouterFunction;
import org.springframework.web.servlet.function.ServerResponse;

import io.github.workqueue.autoconfigure.actuate.WorkQueuesEndpointWebExtension;

/**
 * The dashboard's routes, for whichever context serves Actuator: the application's own,
 * or the management context on {@code management.server.port}
 * ({@link WorkQueueDashboardChildContextConfiguration}). The page reads the
 * {@code workqueues} endpoint on the same port it is served from.
 *
 * <p>
 * <b>Concurrency.</b> Stateless; called once per context, when its beans are created.
 */
final class DashboardRoutes {

	private static final Log logger = LogFactory.getLog(WorkQueueDashboardAutoConfiguration.class);

	private DashboardRoutes() {
	}

	static RouterFunction<ServerResponse> create(WorkQueueDashboardProperties properties,
			ObjectProvider<WebEndpointProperties> webEndpoints,
			ObjectProvider<WorkQueuesEndpointWebExtension> exposedEndpoint,
			ObjectProvider<EndpointAccessResolver> accessResolver) {
		WebEndpointProperties web = webEndpoints.getIfAvailable(WebEndpointProperties::new);
		String basePath = web.getBasePath();
		String endpointPath = basePath + "/" + web.getPathMapping().getOrDefault("workqueues", "workqueues");
		String path = DashboardPath.resolve(properties.getPath(), basePath);
		if (exposedEndpoint.getIfAvailable() == null) {
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
		Duration waitThreshold = properties.getWaitThreshold();
		if (waitThreshold.isNegative() || waitThreshold.isZero()) {
			throw new IllegalArgumentException(
					"workqueue.dashboard.wait-threshold must be positive, was " + waitThreshold);
		}
		return new DashboardPage(path, endpointPath, properties.getSampleInterval(), properties.getHistory(), writes,
				deadLetterThreshold, waitThreshold)
			.routes();
	}

}
