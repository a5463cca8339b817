package io.github.workqueue.autoconfigure.observation;

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

import io.micrometer.common.KeyValue;
import io.micrometer.observation.Observation;
import io.micrometer.observation.ObservationHandler;
import io.micrometer.observation.ObservationRegistry;
import org.junit.jupiter.api.Test;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.annotation.Configuration;

import io.github.workqueue.autoconfigure.WorkQueueAutoConfiguration;
import io.github.workqueue.autoconfigure.WorkQueueRegistry;
import io.github.workqueue.spring.QueueWorker;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

class WorkQueueObservationTest {

	private final List<Observation.Context> stopped = new CopyOnWriteArrayList<>();

	private final ApplicationContextRunner runner = new ApplicationContextRunner()
		.withConfiguration(
				AutoConfigurations.of(WorkQueueObservationAutoConfiguration.class, WorkQueueAutoConfiguration.class))
		.withBean(ObservationRegistry.class, this::registry)
		.withUserConfiguration(Worker.class);

	private ObservationRegistry registry() {
		ObservationRegistry registry = ObservationRegistry.create();
		registry.observationConfig().observationHandler(new ObservationHandler<>() {

			@Override
			public void onStop(Observation.Context context) {
				WorkQueueObservationTest.this.stopped.add(context);
			}

			@Override
			public boolean supportsContext(Observation.Context context) {
				return true;
			}

		});
		return registry;
	}

	@Test
	void eachProcessedItemShouldBeAnObservationWhenEnabled() {
		this.runner.withPropertyValues("workqueue.observation.enabled=true").run((context) -> {
			context.getBean(WorkQueueRegistry.class).getOrCreateQueue("orders").add("ok");
			context.getBean(WorkQueueRegistry.class).getOrCreateQueue("orders").add("bad");
			await().until(() -> this.stopped.size() == 2);
			assertThat(this.stopped).allMatch((c) -> c.getName().equals("workqueue.process"));
			assertThat(this.stopped.get(0).getLowCardinalityKeyValues()).contains(KeyValue.of("queue", "orders"),
					KeyValue.of("outcome", "success"));
			assertThat(this.stopped.get(1).getLowCardinalityKeyValues()).contains(KeyValue.of("outcome", "error"));
			assertThat(this.stopped.get(1).getError()).hasMessage("bad");
		});
	}

	@Test
	void observationsShouldBeOffByDefault() {
		this.runner.run((context) -> assertThat(context).doesNotHaveBean(ObservingWorkObserver.class));
	}

	@Configuration(proxyBeanMethods = false)
	static class Worker {

		@QueueWorker(value = "orders", notRetryable = IllegalStateException.class)
		void handle(String item) {
			if (item.equals("bad")) {
				throw new IllegalStateException("bad");
			}
		}

	}

}
