package io.github.workqueue.autoconfigure.dashboard;

import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;

import org.springframework.beans.factory.SmartInitializingSingleton;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBooleanProperty;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.context.ApplicationContext;
import org.springframework.context.annotation.Bean;
import org.springframework.core.env.Environment;
import org.springframework.web.context.WebApplicationContext;

/**
 * Says why there is no dashboard when {@code workqueue.dashboard.enabled=true} asked for
 * one in an application that cannot serve it (not a servlet web application, or without
 * Actuator), instead of leaving the user to find a 404.
 */
@AutoConfiguration(after = WorkQueueDashboardAutoConfiguration.class)
@ConditionalOnBooleanProperty("workqueue.dashboard.enabled")
@ConditionalOnMissingBean(name = "workQueueDashboardRoutes")
public final class WorkQueueDashboardUnavailableAutoConfiguration {

	private static final Log logger = LogFactory.getLog(WorkQueueDashboardAutoConfiguration.class);

	@Bean
	SmartInitializingSingleton workQueueDashboardUnavailableWarning(ApplicationContext context) {
		if (context instanceof WebApplicationContext && onAnotherPort(context.getEnvironment())) {
			// Served by the management context, on management.server.port.
			return () -> {
			};
		}
		return () -> logger.warn("workqueue.dashboard.enabled is true, but the dashboard is only served by a servlet "
				+ "web application (Spring MVC) with Actuator on the class path; this application is not one, so it "
				+ "has no dashboard");
	}

	/**
	 * Whether Actuator has a port of its own, read from the properties as Actuator's
	 * {@code ManagementPortType} does, without needing Actuator on the class path.
	 */
	private static boolean onAnotherPort(Environment environment) {
		Integer management = environment.getProperty("management.server.port", Integer.class);
		Integer server = environment.getProperty("server.port", Integer.class, 8080);
		return management != null && management >= 0 && !management.equals(server);
	}

}
