package io.github.workqueue.spring.internal;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.params.Parameter;
import org.junit.jupiter.params.ParameterizedClass;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * A container test class that runs once on each backend, memory and Redis (the test
 * Redis: the embedded server unless {@code WORKQUEUE_TEST_REDIS_URL} is set), with a
 * {@link ContainerTestKit} closed after each test.
 */
@ParameterizedClass(name = "{0}")
@ValueSource(strings = { "memory", "redis" })
abstract class OnBothBackends {

	@Parameter
	String backend;

	private ContainerTestKit kit;

	ContainerTestKit kit() {
		if (this.kit == null) {
			this.kit = new ContainerTestKit(this.backend);
		}
		return this.kit;
	}

	@AfterEach
	void closeKit() throws InterruptedException {
		kit().close();
	}

}
