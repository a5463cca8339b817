package io.github.workqueue.autoconfigure.worker;

import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.autoconfigure.context.LifecycleAutoConfiguration;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.annotation.Configuration;

import io.github.workqueue.autoconfigure.WorkQueueAutoConfiguration;
import io.github.workqueue.autoconfigure.WorkQueueRegistry;
import io.github.workqueue.spring.QueueWorker;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Spring Boot bounds each shutdown phase by
 * {@code spring.lifecycle.timeout-per-shutdown-phase}; the workers' drain must be bounded
 * by it too, not only by {@code workqueue.shutdown.timeout}, so that a pod's grace period
 * covers the whole shutdown.
 */
class ShutdownPhaseTimeoutTest {

	static final CountDownLatch release = new CountDownLatch(1);

	static final CountDownLatch started = new CountDownLatch(1);

	@Test
	void theDrainShouldEndWithinTheLifecyclesPhaseTimeout() {
		try {
			new ApplicationContextRunner()
				.withConfiguration(
						AutoConfigurations.of(LifecycleAutoConfiguration.class, WorkQueueAutoConfiguration.class))
				.withUserConfiguration(StuckWorker.class)
				.withPropertyValues("workqueue.queues.stuck.workers=1", "workqueue.shutdown.timeout=60s",
						"spring.lifecycle.timeout-per-shutdown-phase=1s")
				.run((context) -> {
					context.getBean(WorkQueueRegistry.class).getOrCreateQueue("stuck").add("forever");
					await().atMost(Duration.ofSeconds(10)).until(() -> started.getCount() == 0);
					long closing = System.nanoTime();
					context.close();
					assertThat(Duration.ofNanos(System.nanoTime() - closing))
						.as("closing, with a key that never ends and workqueue.shutdown.timeout=60s")
						.isLessThan(Duration.ofSeconds(20));
				});
		}
		finally {
			release.countDown();
		}
	}

	@Configuration(proxyBeanMethods = false)
	static class StuckWorker {

		@QueueWorker("stuck")
		void process(String item) throws InterruptedException {
			started.countDown();
			release.await(2, TimeUnit.MINUTES);
		}

	}

}
