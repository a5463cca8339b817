package io.github.workqueue.autoconfigure.actuate;

import java.time.Duration;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.health.contributor.Health;
import org.springframework.boot.health.contributor.Status;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.annotation.Configuration;

import io.github.workqueue.autoconfigure.WorkQueueAutoConfiguration;
import io.github.workqueue.autoconfigure.WorkQueueRegistry;
import io.github.workqueue.spring.QueueWorker;
import io.github.workqueue.core.Clock;
import io.github.workqueue.core.FakeClock;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

class WorkQueuesHealthTest {

	private final ApplicationContextRunner runner = new ApplicationContextRunner()
		.withConfiguration(
				AutoConfigurations.of(WorkQueueAutoConfiguration.class, WorkQueuesHealthAutoConfiguration.class))
		.withBean(Clock.class, FakeClock::new)
		.withUserConfiguration(BlockingWorker.class);

	@Test
	void healthShouldBeUpWhileWorkersRun() {
		this.runner.run((context) -> {
			Health health = context.getBean(WorkQueuesHealthIndicator.class).health();
			assertThat(health.getStatus()).isEqualTo(Status.UP);
			assertThat(queueDetails(health, "orders")).containsEntry("status", "UP")
				.containsEntry("workers", 1)
				.containsEntry("liveWorkers", 1)
				.containsEntry("replacedWorkers", 0L)
				.containsEntry("paused", false);
		});
	}

	@Test
	void healthShouldBeDownWhenWorkersStoppedUnexpectedly() {
		this.runner.withPropertyValues("workqueue.queues.orders.workers=2").run((context) -> {
			context.getBean(WorkQueueRegistry.class).getQueue("orders").shutDown();
			WorkQueuesHealthIndicator indicator = context.getBean(WorkQueuesHealthIndicator.class);
			await().until(() -> indicator.health().getStatus().equals(Status.DOWN));
			assertThat(queueDetails(indicator.health(), "orders")).containsEntry("status", "DOWN")
				.containsEntry("problem", "workers stopped unexpectedly: 0 of 2 alive");
		});
	}

	@Test
	void healthShouldBeDownWhenAnItemIsStuckPastTheThreshold() {
		this.runner.withPropertyValues("workqueue.health.stuck-threshold=5m").run((context) -> {
			BlockingWorker worker = context.getBean(BlockingWorker.class);
			context.getBean(WorkQueueRegistry.class).getOrCreateQueue("orders").add("x");
			assertThat(worker.started.await(10, TimeUnit.SECONDS)).isTrue();
			WorkQueuesHealthIndicator indicator = context.getBean(WorkQueuesHealthIndicator.class);
			FakeClock clock = (FakeClock) context.getBean(Clock.class);
			clock.step(Duration.ofMinutes(5));
			assertThat(indicator.health().getStatus()).isEqualTo(Status.UP);
			clock.step(Duration.ofSeconds(1));
			Health health = indicator.health();
			assertThat(health.getStatus()).isEqualTo(Status.DOWN);
			assertThat(queueDetails(health, "orders")).containsEntry("problem",
					"an item has been processing for 301s, over the stuck threshold of PT5M");
			worker.release.countDown();
		});
	}

	@Test
	void stuckItemsShouldNotTurnHealthDownByDefault() {
		this.runner.run((context) -> {
			BlockingWorker worker = context.getBean(BlockingWorker.class);
			context.getBean(WorkQueueRegistry.class).getOrCreateQueue("orders").add("x");
			assertThat(worker.started.await(10, TimeUnit.SECONDS)).isTrue();
			((FakeClock) context.getBean(Clock.class)).step(Duration.ofDays(1));
			assertThat(context.getBean(WorkQueuesHealthIndicator.class).health().getStatus()).isEqualTo(Status.UP);
			worker.release.countDown();
		});
	}

	@Test
	void healthIndicatorCanBeDisabled() {
		this.runner.withPropertyValues("management.health.workqueues.enabled=false")
			.run((context) -> assertThat(context).doesNotHaveBean(WorkQueuesHealthIndicator.class));
	}

	@Configuration(proxyBeanMethods = false)
	static class BlockingWorker {

		final CountDownLatch started = new CountDownLatch(1);

		final CountDownLatch release = new CountDownLatch(1);

		@QueueWorker("orders")
		void handle(String item) throws InterruptedException {
			this.started.countDown();
			this.release.await();
		}

	}

	@SuppressWarnings("unchecked")
	private static Map<String, Object> queueDetails(Health health, String queue) {
		Map<String, Object> queues = (Map<String, Object>) health.getDetails().get("queues");
		assertThat(queues).as("details of every queue").containsKey(queue);
		return (Map<String, Object>) queues.get(queue);
	}

}
