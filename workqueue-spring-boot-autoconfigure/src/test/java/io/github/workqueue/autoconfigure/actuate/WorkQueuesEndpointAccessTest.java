package io.github.workqueue.autoconfigure.actuate;

import java.util.Set;
import java.util.stream.Collectors;

import org.junit.jupiter.api.Test;

import org.springframework.boot.actuate.autoconfigure.endpoint.EndpointAutoConfiguration;
import org.springframework.boot.actuate.autoconfigure.endpoint.web.WebEndpointAutoConfiguration;
import org.springframework.boot.actuate.endpoint.EndpointId;
import org.springframework.boot.actuate.endpoint.Operation;
import org.springframework.boot.actuate.endpoint.OperationType;
import org.springframework.boot.actuate.endpoint.web.ExposableWebEndpoint;
import org.springframework.boot.actuate.endpoint.web.WebEndpointsSupplier;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.assertj.AssertableWebApplicationContext;
import org.springframework.boot.test.context.runner.WebApplicationContextRunner;

import io.github.workqueue.autoconfigure.WorkQueueAutoConfiguration;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The endpoint's write operation (pause everywhere, remove keys, bulk dead-letter
 * actions) is closed until the application opens it, as Spring Boot's {@code shutdown}
 * is; its reads are on, as {@code loggers}' are.
 */
class WorkQueuesEndpointAccessTest {

	private final WebApplicationContextRunner runner = new WebApplicationContextRunner()
		.withConfiguration(AutoConfigurations.of(WorkQueueAutoConfiguration.class, EndpointAutoConfiguration.class,
				WebEndpointAutoConfiguration.class, WorkQueuesEndpointAutoConfiguration.class))
		.withPropertyValues("management.endpoints.web.exposure.include=workqueues");

	@Test
	void byDefaultOnlyTheReadsShouldBeOffered() {
		this.runner.run((context) -> assertThat(operationTypes(context)).containsOnly(OperationType.READ));
	}

	@Test
	void unrestrictedAccessShouldOfferTheWritesToo() {
		this.runner.withPropertyValues("management.endpoint.workqueues.access=UNRESTRICTED")
			.run((context) -> assertThat(operationTypes(context)).contains(OperationType.READ, OperationType.WRITE));
	}

	private static Set<OperationType> operationTypes(AssertableWebApplicationContext context) {
		ExposableWebEndpoint endpoint = context.getBean(WebEndpointsSupplier.class)
			.getEndpoints()
			.stream()
			.filter((candidate) -> candidate.getEndpointId().equals(EndpointId.of("workqueues")))
			.findFirst()
			.orElseThrow();
		return endpoint.getOperations().stream().map(Operation::getType).collect(Collectors.toSet());
	}

}
