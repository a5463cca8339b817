package io.github.workqueue.core;

import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import io.github.workqueue.core.metrics.DropReason;
import io.github.workqueue.core.metrics.RecordingMetricsProvider;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Adds racing shutdown: every add is either dropped and counted, or handed out to a
 * consumer, whichever side of the shutdown it lands on; nothing stays queued after the
 * consumers were told the queue is shut down and drained.
 */
class ShutdownRaceTest {

	private static final int ROUNDS = 3_000;

	private static final int ADDS_PER_ROUND = 20;

	private final ExecutorService threads = Executors.newFixedThreadPool(3);

	@AfterEach
	void stopThreads() {
		this.threads.shutdownNow();
	}

	@Test
	void everyAddShouldBeHandedOutOrCountedAsDropped() throws Exception {
		for (int round = 0; round < ROUNDS; round++) {
			race(round % 2 == 0);
		}
	}

	private void race(boolean delaying) throws Exception {
		RecordingMetricsProvider metrics = new RecordingMetricsProvider();
		WorkQueueBuilder builder = WorkQueue.builder().name("race").metricsProvider(metrics);
		WorkQueue<Integer> queue = delaying ? builder.buildDelaying() : builder.build();
		AtomicInteger handedOut = new AtomicInteger();
		CountDownLatch start = new CountDownLatch(1);
		Future<?> producer = this.threads.submit(() -> {
			start.await();
			for (int i = 0; i < ADDS_PER_ROUND; i++) {
				queue.add(i);
			}
			return null;
		});
		Future<?> consumer = this.threads.submit(() -> {
			start.await();
			Optional<Integer> item;
			while ((item = queue.get()).isPresent()) {
				handedOut.incrementAndGet();
				queue.done(item.get());
			}
			return null;
		});
		Future<?> shutdown = this.threads.submit(() -> {
			start.await();
			queue.shutDown();
			return null;
		});
		start.countDown();
		producer.get(30, TimeUnit.SECONDS);
		shutdown.get(30, TimeUnit.SECONDS);
		consumer.get(30, TimeUnit.SECONDS);
		long dropped = metrics.dropped("race", DropReason.ADD_AFTER_SHUTDOWN);
		assertThat(handedOut.get() + dropped).as("handed out + dropped").isEqualTo(ADDS_PER_ROUND);
		assertThat(queue.len()).isZero();
		assertThat(queue.get(Duration.ZERO)).isEmpty();
	}

}
