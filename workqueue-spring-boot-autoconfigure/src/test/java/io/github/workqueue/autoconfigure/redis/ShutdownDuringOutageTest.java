package io.github.workqueue.autoconfigure.redis;

import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import redis.embedded.RedisServer;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.data.redis.autoconfigure.DataRedisAutoConfiguration;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import org.springframework.context.annotation.Configuration;

import io.github.workqueue.autoconfigure.WorkQueueAutoConfiguration;
import io.github.workqueue.autoconfigure.WorkQueueRedisAutoConfiguration;
import io.github.workqueue.redis.RedisQueue;
import io.github.workqueue.redis.TestRedis;
import io.github.workqueue.spring.QueueWorker;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * An application stopped while Redis cannot be reached stops within its shutdown timeout,
 * with a worker in the middle of an item and others blocked in {@code get}, and logs no
 * error: Redis being down is already known and logged once.
 */
@ExtendWith(OutputCaptureExtension.class)
class ShutdownDuringOutageTest {

	private final int port = TestRedis.freePort();

	private RedisServer server = TestRedis.startServer(this.port);

	private final String queue = TestRedis.uniqueName("outage-stop");

	@AfterEach
	void stopRedis() {
		this.server.stop();
	}

	@Test
	void stoppingWhileRedisIsDownShouldEndWithinTheShutdownTimeoutQuietly(CapturedOutput output) {
		new ApplicationContextRunner()
			.withConfiguration(AutoConfigurations.of(DataRedisAutoConfiguration.class,
					WorkQueueRedisAutoConfiguration.class, WorkQueueAutoConfiguration.class))
			.withUserConfiguration(SlowWorker.class)
			.withPropertyValues("spring.data.redis.url=redis://127.0.0.1:" + this.port, "spring.data.redis.timeout=5s",
					"workqueue.queues." + this.queue + ".backend=redis",
					"workqueue.queues." + this.queue + ".lease-duration=15s", "workqueue.shutdown.timeout=3s",
					"workers.queue=" + this.queue)
			.run((context) -> {
				@SuppressWarnings("unchecked")
				RedisQueue<String> orders = context.getBean(this.queue, RedisQueue.class);
				orders.add("slow");
				SlowWorker worker = context.getBean(SlowWorker.class);
				assertThat(worker.started.await(10, TimeUnit.SECONDS)).as("the worker took its item").isTrue();
				this.server.stop();
				long stopped = System.nanoTime();
				while (orders.unreachableSince().isEmpty() && System.nanoTime() - stopped < 20_000_000_000L) {
					Thread.sleep(20);
				}
				assertThat(orders.unreachableSince()).as("the outage known").isPresent();
				int before = output.length();
				long closing = System.nanoTime();
				context.close();
				Duration took = Duration.ofNanos(System.nanoTime() - closing);
				System.out.println("stopped during an outage in " + took.toMillis() + " ms");
				// The shutdown timeout (3 s), then the connection's close; a busy machine
				// adds a little.
				assertThat(took).isLessThan(Duration.ofSeconds(3 + 3));
				// Nor later: a connect that ends after the client's event loops stopped
				// logs Netty's errors a moment after the close.
				await().during(Duration.ofMillis(1500))
					.atMost(Duration.ofSeconds(3))
					.untilAsserted(() -> assertThat(output.toString().substring(before)).doesNotContain("ERROR")
						.doesNotContain("Exception\n\tat ")
						.doesNotContain("SEVERE"));
			});
	}

	@Configuration(proxyBeanMethods = false)
	static class SlowWorker {

		final CountDownLatch started = new CountDownLatch(1);

		@QueueWorker(value = "${workers.queue}", workers = "3")
		void handle(String item) throws InterruptedException {
			this.started.countDown();
			Thread.sleep(60_000);
		}

	}

}
