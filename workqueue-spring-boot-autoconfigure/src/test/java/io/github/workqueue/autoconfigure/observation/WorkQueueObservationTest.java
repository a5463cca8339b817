package io.github.workqueue.autoconfigure.observation;

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

import io.micrometer.common.KeyValue;
import io.micrometer.common.KeyValues;
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
import io.github.workqueue.spring.internal.WorkObserver;

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
			assertThat(this.stopped.get(0).getLowCardinalityKeyValues()).contains(KeyValue.of("name", "orders"),
					KeyValue.of("outcome", "success"));
			assertThat(this.stopped.get(1).getLowCardinalityKeyValues()).contains(KeyValue.of("outcome", "error"));
			assertThat(this.stopped.get(1).getError()).hasMessage("bad");
		});
	}

	@Test
	void aConventionBeanShouldNameAndTagTheObservations() {
		WorkQueueObservationConvention convention = new WorkQueueObservationConvention() {

			@Override
			public String getName() {
				return "orders.reconcile";
			}

			@Override
			public KeyValues getLowCardinalityKeyValues(WorkQueueObservationContext context) {
				return KeyValues.of("tenant", String.valueOf(context.getItem()).split(":")[0]);
			}

		};
		this.runner.withPropertyValues("workqueue.observation.enabled=true")
			.withBean(WorkQueueObservationConvention.class, () -> convention)
			.run((context) -> {
				context.getBean(WorkQueueRegistry.class).getOrCreateQueue("orders").add("acme:1");
				await().until(() -> this.stopped.size() == 1);
				assertThat(this.stopped.get(0).getName()).isEqualTo("orders.reconcile");
				assertThat(this.stopped.get(0).getLowCardinalityKeyValues())
					.containsExactly(KeyValue.of("tenant", "acme"));
			});
	}

	@Test
	void theApplicationsOwnObserverShouldWinOverTheObservations() {
		List<String> observed = new CopyOnWriteArrayList<>();
		WorkObserver own = (queueName, item, work) -> {
			observed.add(queueName + ":" + item);
			return work.call();
		};
		this.runner.withPropertyValues("workqueue.observation.enabled=true")
			.withBean(WorkObserver.class, () -> own)
			.run((context) -> {
				assertThat(context).hasSingleBean(WorkObserver.class).doesNotHaveBean(ObservingWorkObserver.class);
				context.getBean(WorkQueueRegistry.class).getOrCreateQueue("orders").add("ok");
				await().until(() -> observed.contains("orders:ok"));
				assertThat(this.stopped).isEmpty();
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
