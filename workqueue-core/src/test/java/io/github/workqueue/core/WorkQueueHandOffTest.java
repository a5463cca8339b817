package io.github.workqueue.core;

import java.time.Duration;
import java.util.concurrent.SynchronousQueue;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;

import io.github.workqueue.core.metrics.RecordingMetricsProvider;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A producer hands items one at a time to a consumer that is usually blocked in get, so
 * each hand-off depends on the push waking the blocked consumer. A lost wake-up leaves
 * the consumer asleep with an item queued, and the hand-off times out.
 */
class WorkQueueHandOffTest {

	private static final int HAND_OFFS = 20_000;

	@Test
	void everyPushShouldWakeABlockedConsumer() throws Exception {
		handOff(WorkQueue.builder().build());
	}

	@Test
	void everyPushShouldWakeABlockedConsumerWithMetricsOn() throws Exception {
		handOff(WorkQueue.builder().name("hand-off").metricsProvider(new RecordingMetricsProvider()).build());
	}

	private static void handOff(WorkQueue<Integer> queue) throws Exception {
		SynchronousQueue<Integer> taken = new SynchronousQueue<>();
		Thread consumer = new Thread(() -> consume(queue, taken), "consumer");
		consumer.start();
		for (int i = 0; i < HAND_OFFS; i++) {
			queue.add(i);
			assertThat(taken.poll(10, TimeUnit.SECONDS)).as("hand-off %d", i).isEqualTo(i);
		}
		queue.shutDown();
		consumer.join(10_000);
		assertThat(consumer.isAlive()).isFalse();
		assertThat(queue.get(Duration.ZERO)).isEmpty();
	}

	private static void consume(WorkQueue<Integer> queue, SynchronousQueue<Integer> taken) {
		try {
			Integer item;
			while ((item = queue.get().orElse(null)) != null) {
				queue.done(item);
				taken.put(item);
			}
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
		}
	}

}
