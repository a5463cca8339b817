package io.github.workqueue.autoconfigure.dashboard;

import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import org.springframework.boot.actuate.autoconfigure.endpoint.EndpointAutoConfiguration;
import org.springframework.boot.actuate.autoconfigure.endpoint.web.WebEndpointAutoConfiguration;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.boot.test.context.runner.WebApplicationContextRunner;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import org.springframework.web.servlet.function.RouterFunction;

import io.github.workqueue.autoconfigure.WorkQueueAutoConfiguration;
import io.github.workqueue.autoconfigure.actuate.RecentRates;
import io.github.workqueue.autoconfigure.actuate.WorkQueuesEndpointAutoConfiguration;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * When the dashboard is served: only when asked for, in a servlet web application, and
 * with its rates sampled only where there are meters to sample.
 */
@ExtendWith(OutputCaptureExtension.class)
class WorkQueueDashboardAutoConfigurationTest {

	private static final AutoConfigurations CONFIGURATIONS = AutoConfigurations.of(WorkQueueAutoConfiguration.class,
			EndpointAutoConfiguration.class, WebEndpointAutoConfiguration.class,
			WorkQueuesEndpointAutoConfiguration.class, WorkQueueDashboardAutoConfiguration.class,
			WorkQueueDashboardUnavailableAutoConfiguration.class);

	private final WebApplicationContextRunner runner = new WebApplicationContextRunner()
		.withConfiguration(CONFIGURATIONS)
		.withPropertyValues("management.endpoints.web.exposure.include=workqueues");

	@Test
	void theDashboardShouldBeOffByDefault() {
		this.runner.run((context) -> assertThat(context).doesNotHaveBean(RouterFunction.class)
			.doesNotHaveBean(RecentRates.class)
			.doesNotHaveBean(RecentRatesSampler.class));
	}

	@Test
	void onePropertyShouldTurnItOn(CapturedOutput output) {
		this.runner.withPropertyValues("workqueue.dashboard.enabled=true").run((context) -> {
			assertThat(context).hasBean("workQueueDashboardRoutes").doesNotHaveBean(RecentRates.class);
			assertThat(output).doesNotContain("workqueue dashboard", "workqueue.dashboard");
		});
	}

	@Test
	void itsRatesShouldBeSampledWhenThereIsAMeterRegistry() {
		this.runner.withPropertyValues("workqueue.dashboard.enabled=true")
			.withBean(MeterRegistry.class, SimpleMeterRegistry::new)
			.run((context) -> {
				assertThat(context).hasSingleBean(RecentRates.class).hasSingleBean(RecentRatesSampler.class);
				assertThat(context.getBean(RecentRatesSampler.class).isRunning()).isTrue();
			});
	}

	@Test
	void aNegativeDeadLetterThresholdShouldBeRefusedAtStartupNamingTheProperty() {
		this.runner
			.withPropertyValues("workqueue.dashboard.enabled=true", "workqueue.dashboard.dead-letter-threshold=-1")
			.run((context) -> assertThat(context).hasFailed()
				.getFailure()
				.rootCause()
				.hasMessage("workqueue.dashboard.dead-letter-threshold must be 0 or more, was -1"));
	}

	@Test
	void aDashboardWhoseEndpointIsNotExposedShouldBeWarnedAbout(CapturedOutput output) {
		this.runner
			.withPropertyValues("workqueue.dashboard.enabled=true", "management.endpoints.web.exposure.include=health")
			.run((context) -> assertThat(output).contains("the workqueues endpoint is not exposed over HTTP",
					"add workqueues to management.endpoints.web.exposure.include"));
	}

	@Test
	void withActuatorOnAnotherPortThePageShouldLeaveTheApplicationsContextQuietly(CapturedOutput output) {
		// DashboardOnManagementPortTest serves it there.
		this.runner
			.withPropertyValues("workqueue.dashboard.enabled=true", "server.port=8080", "management.server.port=9090")
			.run((context) -> {
				assertThat(context).hasNotFailed().doesNotHaveBean("workQueueDashboardRoutes");
				assertThat(output).doesNotContain("has no dashboard");
			});
	}

	@Test
	void outsideAServletWebApplicationItShouldNotBeServedAndSaySo(CapturedOutput output) {
		new ApplicationContextRunner().withConfiguration(CONFIGURATIONS)
			.withPropertyValues("workqueue.dashboard.enabled=true")
			.run((context) -> {
				assertThat(context).hasNotFailed().doesNotHaveBean(RouterFunction.class);
				assertThat(output).contains("this application is not one, so it has no dashboard");
			});
	}

	@Test
	void aServedDashboardShouldNotBeSaidToBeMissing(CapturedOutput output) {
		this.runner.withPropertyValues("workqueue.dashboard.enabled=true")
			.run((context) -> assertThat(output).doesNotContain("has no dashboard"));
	}

	@Test
	void aPathWithAWildcardShouldFailAtStartupNamingTheProperty() {
		this.runner.withPropertyValues("workqueue.dashboard.enabled=true", "workqueue.dashboard.path=/queues/**")
			.run((context) -> assertThat(context).hasFailed()
				.getFailure()
				.rootCause()
				.hasMessageContaining("workqueue.dashboard.path")
				.hasMessageContaining("/queues/**"));
	}

	@Test
	void aHistoryShorterThanTheSampleIntervalShouldFailAtStartup() {
		this.runner
			.withPropertyValues("workqueue.dashboard.enabled=true", "workqueue.dashboard.sample-interval=1m",
					"workqueue.dashboard.history=10s")
			.withBean(MeterRegistry.class, SimpleMeterRegistry::new)
			.run((context) -> assertThat(context).hasFailed()
				.getFailure()
				.rootCause()
				.hasMessageContaining("sample interval"));
	}

}
