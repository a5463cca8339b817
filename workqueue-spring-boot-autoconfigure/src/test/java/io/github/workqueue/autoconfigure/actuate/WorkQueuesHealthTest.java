package io.github.workqueue.autoconfigure.actuate;

import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.health.contributor.Health;
import org.springframework.boot.health.contributor.HealthContributor;
import org.springframework.boot.health.contributor.HealthContributors;
import org.springframework.boot.health.contributor.HealthIndicator;
import org.springframework.boot.health.contributor.Status;
import org.springframework.boot.test.context.assertj.AssertableApplicationContext;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.annotation.Configuration;

import io.github.workqueue.autoconfigure.WorkQueueAutoConfiguration;
import io.github.workqueue.autoconfigure.WorkQueueRegistry;
import io.github.workqueue.spring.QueueWorker;
import io.github.workqueue.spring.QueueWorkerRegistry;
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
			Health health = orders(context);
			assertThat(health.getStatus()).isEqualTo(Status.UP);
			assertThat(health.getDetails()).containsEntry("workers", 1)
				.containsEntry("liveWorkers", 1)
				.containsEntry("replacedWorkers", 0L)
				.containsEntry("paused", false);
		});
	}

	@Test
	void healthShouldBeDownWhenWorkersStoppedUnexpectedly() {
		this.runner.withPropertyValues("workqueue.queues.orders.workers=2").run((context) -> {
			context.getBean(WorkQueueRegistry.class).getQueue("orders").shutDown();
			await().until(() -> orders(context).getStatus().equals(Status.DOWN));
			assertThat(orders(context).getDetails()).containsEntry("problem",
					"workers stopped unexpectedly: 0 of 2 alive");
		});
	}

	@Test
	void healthShouldBeDownWhenAnItemIsStuckPastTheThreshold() {
		this.runner.withPropertyValues("workqueue.health.stuck-threshold=5m").run((context) -> {
			BlockingWorker worker = context.getBean(BlockingWorker.class);
			context.getBean(WorkQueueRegistry.class).getOrCreateQueue("orders").add("x");
			assertThat(worker.started.await(10, TimeUnit.SECONDS)).isTrue();
			FakeClock clock = (FakeClock) context.getBean(Clock.class);
			clock.step(Duration.ofMinutes(5));
			assertThat(orders(context).getStatus()).isEqualTo(Status.UP);
			clock.step(Duration.ofSeconds(1));
			Health health = orders(context);
			assertThat(health.getStatus()).isEqualTo(Status.DOWN);
			assertThat(health.getDetails()).containsEntry("problem",
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
			assertThat(orders(context).getStatus()).isEqualTo(Status.UP);
			worker.release.countDown();
		});
	}

	@Test
	void theQueuesOfOnePassShouldBeAnsweredFromOneReadingAndAQueueAskedAgainReadAfresh() {
		this.runner.withPropertyValues("workqueue.queues.idle.workers=1", "workqueue.health.stuck-threshold=5m")
			.run((context) -> {
				BlockingWorker worker = context.getBean(BlockingWorker.class);
				context.getBean(WorkQueueRegistry.class).getOrCreateQueue("orders").add("x");
				assertThat(worker.started.await(10, TimeUnit.SECONDS)).isTrue();
				WorkQueuesHealthContributor contributor = new WorkQueuesHealthContributor(
						context.getBean(QueueWorkerRegistry.class), context.getBean(WorkQueueRegistry.class),
						Duration.ofMinutes(5), Duration.ofHours(1));
				assertThat(contributor.health("idle").getStatus()).isEqualTo(Status.UP);
				((FakeClock) context.getBean(Clock.class)).step(Duration.ofMinutes(6));
				assertThat(contributor.health("orders").getStatus()).as("answered from the pass's reading")
					.isEqualTo(Status.UP);
				assertThat(contributor.health("orders").getStatus()).as("asked again: read afresh")
					.isEqualTo(Status.DOWN);
				worker.release.countDown();
			});
	}

	@Test
	void everyQueueShouldBeAComponentOfItsOwn() {
		this.runner.withPropertyValues("workqueue.queues.idle.workers=1").run((context) -> {
			WorkQueuesHealthContributor contributor = context.getBean(WorkQueuesHealthContributor.class);
			assertThat(contributor.stream().map(HealthContributors.Entry::name)).containsExactly("idle", "orders");
			assertThat(contributor.getContributor("nope")).isNull();
		});
	}

	@Test
	void healthIndicatorCanBeDisabled() {
		this.runner.withPropertyValues("management.health.workqueues.enabled=false")
			.run((context) -> assertThat(context).doesNotHaveBean(WorkQueuesHealthContributor.class));
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

	/** The queue's own component: {@code /actuator/health/workqueues/orders}. */
	private static Health orders(AssertableApplicationContext context) {
		HealthContributor orders = context.getBean(WorkQueuesHealthContributor.class).getContributor("orders");
		assertThat(orders).as("the component of queue orders").isInstanceOf(HealthIndicator.class);
		return ((HealthIndicator) orders).health(true);
	}

}
