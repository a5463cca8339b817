package io.github.workqueue.autoconfigure.dashboard;

import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;

import org.springframework.beans.factory.SmartInitializingSingleton;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBooleanProperty;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.context.annotation.Bean;

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
	SmartInitializingSingleton workQueueDashboardUnavailableWarning() {
		return () -> logger.warn("workqueue.dashboard.enabled is true, but the dashboard is only served by a servlet "
				+ "web application (Spring MVC) with Actuator on the class path; this application is not one, so it "
				+ "has no dashboard");
	}

}
