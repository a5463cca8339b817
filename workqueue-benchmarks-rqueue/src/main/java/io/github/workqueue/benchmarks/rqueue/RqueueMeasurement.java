package io.github.workqueue.benchmarks.rqueue;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;

import com.github.sonus21.rqueue.annotation.RqueueListener;
import com.github.sonus21.rqueue.config.SimpleRqueueListenerContainerFactory;
import com.github.sonus21.rqueue.core.RqueueMessageEnqueuer;

import org.springframework.beans.factory.annotation.Value;
import org.springframework.boot.SpringApplication;
import org.springframework.boot.autoconfigure.SpringBootApplication;
import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.context.annotation.Bean;
import org.springframework.core.env.Environment;
import org.springframework.stereotype.Component;

/**
 * Rqueue on the Redis at {@code spring.data.redis.url}, with its defaults (listeners poll
 * every 200 ms), on the workloads {@code RedisMeasurement} runs for the Redis queue:
 * <ul>
 * <li>enqueue-and-process: four producers enqueue 100k distinct messages while a listener
 * of concurrency 4 processes them; messages per second from the first enqueue to the last
 * one processed;</li>
 * <li>hand-off: one message at a time, from the call of {@code enqueue} to the listener
 * receiving it, p50 and p99;</li>
 * <li>ten enqueues of one key while it waits: how many times the listener runs.</li>
 * </ul>
 */
@SpringBootApplication
public class RqueueMeasurement {

	static final int ITEMS = Integer.getInteger("items", 100_000);

	static final int HAND_OFFS = 200;

	public static void main(String[] args) throws Exception {
		try (ConfigurableApplicationContext context = SpringApplication.run(RqueueMeasurement.class, args)) {
			RqueueMessageEnqueuer enqueuer = context.getBean(RqueueMessageEnqueuer.class);
			Listeners listeners = context.getBean(Listeners.class);
			Environment environment = context.getEnvironment();
			System.out.printf("rqueue enqueue-and-process, concurrency %s, batch %s, polling %s ms: %,.0f items/s%n",
					environment.getProperty("rqueue.bench.concurrency", "4"),
					environment.getProperty("rqueue.bench.batch", "default"),
					environment.getProperty("rqueue.bench.polling-interval", "200 (default)"),
					throughput(enqueuer, listeners));
			double[] latency = handOff(enqueuer, listeners);
			System.out.printf("rqueue hand-off enqueue -> listener: p50 %.3f ms, p99 %.3f ms%n", latency[0],
					latency[1]);
			System.out.println("rqueue runs for 10 enqueues of one key while it waits: " + dedup(enqueuer, listeners));
		}
	}

	private static double throughput(RqueueMessageEnqueuer enqueuer, Listeners listeners) throws InterruptedException {
		listeners.processed.set(new CountDownLatch(ITEMS));
		long start = System.nanoTime();
		List<Thread> producers = new ArrayList<>();
		for (int p = 0; p < 4; p++) {
			int first = p;
			Thread producer = new Thread(() -> {
				for (int i = first; i < ITEMS; i += 4) {
					enqueuer.enqueue("bench", "item-" + i);
				}
			});
			producer.start();
			producers.add(producer);
		}
		for (Thread producer : producers) {
			producer.join();
		}
		if (!listeners.processed.get().await(10, TimeUnit.MINUTES)) {
			throw new IllegalStateException(
					"not all messages were processed: " + listeners.processed.get().getCount() + " left");
		}
		return ITEMS / ((System.nanoTime() - start) / 1e9);
	}

	private static double[] handOff(RqueueMessageEnqueuer enqueuer, Listeners listeners) throws InterruptedException {
		long[] latencies = new long[HAND_OFFS];
		for (int i = 0; i < HAND_OFFS; i++) {
			CountDownLatch received = new CountDownLatch(1);
			listeners.handOff.set(received);
			long sent = System.nanoTime();
			enqueuer.enqueue("handoff", "item-" + i);
			if (!received.await(10, TimeUnit.SECONDS)) {
				throw new IllegalStateException("hand-off " + i + " did not arrive");
			}
			latencies[i] = listeners.receivedAt.get() - sent;
		}
		Arrays.sort(latencies);
		return new double[] { latencies[HAND_OFFS / 2] / 1e6, latencies[HAND_OFFS * 99 / 100] / 1e6 };
	}

	private static int dedup(RqueueMessageEnqueuer enqueuer, Listeners listeners) throws InterruptedException {
		for (int i = 0; i < 10; i++) {
			enqueuer.enqueue("dedup", "same-key");
		}
		Thread.sleep(3000);
		return listeners.dedupRuns.get();
	}

	/**
	 * Rqueue tuned for throughput as its users would: a listener container factory that
	 * polls every {@code rqueue.bench.polling-interval} milliseconds instead of 200.
	 * Absent the property, Rqueue runs with its defaults.
	 * @param pollingInterval milliseconds between polls
	 * @return the factory Rqueue's configuration picks up
	 */
	@Bean
	@ConditionalOnProperty("rqueue.bench.polling-interval")
	SimpleRqueueListenerContainerFactory simpleRqueueListenerContainerFactory(
			@Value("${rqueue.bench.polling-interval}") long pollingInterval) {
		SimpleRqueueListenerContainerFactory factory = new SimpleRqueueListenerContainerFactory();
		factory.setPollingInterval(pollingInterval);
		return factory;
	}

	@Component
	public static class Listeners {

		final AtomicReference<CountDownLatch> processed = new AtomicReference<>(new CountDownLatch(0));

		final AtomicReference<CountDownLatch> handOff = new AtomicReference<>(new CountDownLatch(0));

		final AtomicLong receivedAt = new AtomicLong();

		final AtomicInteger dedupRuns = new AtomicInteger();

		@RqueueListener(value = "bench", concurrency = "${rqueue.bench.concurrency:4}",
				batchSize = "${rqueue.bench.batch:-1}")
		public void bench(String item) {
			this.processed.get().countDown();
		}

		@RqueueListener("handoff")
		public void handOff(String item) {
			this.receivedAt.set(System.nanoTime());
			this.handOff.get().countDown();
		}

		@RqueueListener("dedup")
		public void dedup(String item) {
			this.dedupRuns.incrementAndGet();
		}

	}

}
