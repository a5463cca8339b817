package io.github.workqueue.autoconfigure.dashboard;

import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.actuate.autoconfigure.endpoint.web.WebEndpointProperties;
import org.springframework.boot.actuate.autoconfigure.web.ManagementContextConfiguration;
import org.springframework.boot.actuate.autoconfigure.web.ManagementContextType;
import org.springframework.boot.actuate.autoconfigure.web.server.ConditionalOnManagementPort;
import org.springframework.boot.actuate.autoconfigure.web.server.ManagementPortType;
import org.springframework.boot.actuate.endpoint.EndpointAccessResolver;
import org.springframework.boot.actuate.endpoint.annotation.Endpoint;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBooleanProperty;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnWebApplication;
import org.springframework.context.annotation.Bean;
import org.springframework.web.servlet.function.RouterFunction;
import org.springframework.web.servlet.function.ServerResponse;

import io.github.workqueue.autoconfigure.actuate.WorkQueuesEndpointWebExtension;

/**
 * The dashboard on the management port: when {@code management.server.port} puts Actuator
 * in a child context of its own, the page is served there, beside the endpoint it reads,
 * and not on the application's port. Its settings and the endpoint's beans come from the
 * application's context.
 */
@ManagementContextConfiguration(value = ManagementContextType.CHILD, proxyBeanMethods = false)
@ConditionalOnBooleanProperty("workqueue.dashboard.enabled")
@ConditionalOnManagementPort(ManagementPortType.DIFFERENT)
@ConditionalOnWebApplication(type = ConditionalOnWebApplication.Type.SERVLET)
@ConditionalOnClass({ Endpoint.class, RouterFunction.class })
public class WorkQueueDashboardChildContextConfiguration {

	@Bean
	RouterFunction<ServerResponse> workQueueDashboardRoutes(WorkQueueDashboardProperties properties,
			ObjectProvider<WebEndpointProperties> webEndpoints,
			ObjectProvider<WorkQueuesEndpointWebExtension> exposedEndpoint,
			ObjectProvider<EndpointAccessResolver> accessResolver) {
		return DashboardRoutes.create(properties, webEndpoints, exposedEndpoint, accessResolver);
	}

}
