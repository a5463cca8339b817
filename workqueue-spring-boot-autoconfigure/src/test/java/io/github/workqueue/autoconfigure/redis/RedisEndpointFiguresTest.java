package io.github.workqueue.autoconfigure.redis;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;

import org.junit.jupiter.api.Test;

import org.springframework.boot.actuate.endpoint.InvalidEndpointRequestException;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.data.redis.autoconfigure.DataRedisAutoConfiguration;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;

import io.github.workqueue.autoconfigure.WorkQueueAutoConfiguration;
import io.github.workqueue.autoconfigure.WorkQueueRedisAutoConfiguration;
import io.github.workqueue.autoconfigure.WorkQueueRegistry;
import io.github.workqueue.autoconfigure.actuate.DeadLetterDescriptor;
import io.github.workqueue.autoconfigure.actuate.QueueDescriptor;
import io.github.workqueue.autoconfigure.actuate.WorkQueuesEndpoint;
import io.github.workqueue.core.AddOptions;
import io.github.workqueue.redis.RedisQueue;
import io.github.workqueue.redis.TestRedis;
import io.github.workqueue.spring.QueueWorkerRegistry;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

/**
 * The endpoint's figures of a Redis queue agree with each other while the queue moves,
 * and its bulk actions refuse a set of dead letters that changed under the operator.
 */
class RedisEndpointFiguresTest {

	private final String queue = TestRedis.uniqueName("figures");

	private final ApplicationContextRunner runner = new ApplicationContextRunner()
		.withConfiguration(AutoConfigurations.of(DataRedisAutoConfiguration.class,
				WorkQueueRedisAutoConfiguration.class, WorkQueueAutoConfiguration.class))
		.withPropertyValues("spring.data.redis.url=" + TestRedis.uri(),
				"workqueue.queues." + this.queue + ".backend=redis");

	@Test
	void whileABacklogDrainsTheDepthShouldEqualTheSumOfItsPriorities() {
		this.runner.run((context) -> {
			@SuppressWarnings("unchecked")
			RedisQueue<String> orders = context.getBean(this.queue, RedisQueue.class);
			for (int i = 0; i < 1500; i++) {
				orders.add("order-" + i, AddOptions.priority(i % 3));
			}
			WorkQueuesEndpoint endpoint = endpoint(context);
			AtomicBoolean draining = new AtomicBoolean(true);
			Thread drain = new Thread(() -> {
				try {
					while (draining.get()) {
						orders.get(Duration.ofMillis(100)).ifPresent(orders::done);
					}
				}
				catch (InterruptedException ex) {
					Thread.currentThread().interrupt();
				}
			});
			drain.start();
			List<String> disagreements = new ArrayList<>();
			try {
				for (int read = 0; read < 30; read++) {
					QueueDescriptor shown = endpoint.queue(this.queue);
					int sum = shown.depthByPriority().values().stream().mapToInt(Integer::intValue).sum();
					if (shown.depth() == null || shown.depth() != sum) {
						disagreements.add(shown.depth() + " against " + shown.depthByPriority());
					}
				}
			}
			finally {
				draining.set(false);
				drain.join();
			}
			assertThat(disagreements).isEmpty();
		});
	}

	@Test
	void aDeadLetterSwappedForAnotherBetweenTheReadAndTheActionShouldMakeABulkActionRefuse() {
		this.runner.run((context) -> {
			@SuppressWarnings("unchecked")
			RedisQueue<String> orders = context.getBean(this.queue, RedisQueue.class);
			for (int i = 1; i <= 3; i++) {
				orders.deadLetter("poison-" + i, "gave up after max-retries", 4, null);
			}
			WorkQueuesEndpoint endpoint = endpoint(context);
			QueueDescriptor seen = endpoint.queue(this.queue);
			DeadLetterDescriptor newest = seen.deadLetters().get(0);
			// One the operator saw goes, one they never saw comes: still three.
			assertThat(orders.dropDeadLetter("poison-1")).isTrue();
			orders.deadLetter("poison-4", "gave up after max-retries", 4, null);
			assertThat(endpoint.queue(this.queue).deadLetterCount()).isEqualTo(3);

			for (String action : List.of("requeue-dead-letter", "drop-dead-letter")) {
				assertThatExceptionOfType(InvalidEndpointRequestException.class)
					.isThrownBy(() -> endpoint.changeWorkers(this.queue, action, "*", "", 3, newest.item(),
							newest.atMillis(), null))
					.withMessageContaining("Nothing was changed")
					.withMessageContaining("the newest poison-4");
			}
			assertThat(endpoint.queue(this.queue).deadLetters()).extracting(DeadLetterDescriptor::item)
				.as("nothing requeued or dropped")
				.containsExactlyInAnyOrder("poison-2", "poison-3", "poison-4");
			assertThat(orders.len()).isZero();
		});
	}

	private static WorkQueuesEndpoint endpoint(org.springframework.context.ApplicationContext context) {
		return new WorkQueuesEndpoint(context.getBean(WorkQueueRegistry.class),
				context.getBean(QueueWorkerRegistry.class), null);
	}

}
