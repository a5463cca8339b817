package io.github.workqueue.test;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;

import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.context.annotation.Import;

import io.github.workqueue.spring.QueueWorker;

/**
 * An application with a worker that succeeds at once for most keys, fails twice and then
 * succeeds for {@code flaky-} keys, always fails for {@code poison-} keys (given up after
 * two retries), and waits for the test for {@code slow-} keys.
 */
@SpringBootConfiguration
@EnableAutoConfiguration
@Import(RetryingWorkerApplication.Orders.class)
class RetryingWorkerApplication {

	static class Orders {

		final Map<String, Integer> calls = new ConcurrentHashMap<>();

		/** Lets the {@code slow-} keys finish. */
		final CountDownLatch releaseSlow = new CountDownLatch(1);

		@QueueWorker("orders")
		void reconcile(String key) throws InterruptedException {
			int call = this.calls.merge(key, 1, Integer::sum);
			if (key.startsWith("poison-")) {
				throw new IllegalStateException("the downstream rejects " + key);
			}
			if (key.startsWith("flaky-") && call < 3) {
				throw new IllegalStateException("the downstream is not ready for " + key);
			}
			if (key.startsWith("slow-")) {
				this.releaseSlow.await();
			}
		}

	}

}
