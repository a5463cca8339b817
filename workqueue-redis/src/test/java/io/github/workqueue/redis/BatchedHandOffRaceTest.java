package io.github.workqueue.redis;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * The race of an instance's batched hand-off: a lease is granted for a thread that waited
 * when the batch was made, and that thread may time out or be interrupted before the
 * reply comes. Getters here wait from 0 to 2 ms and are interrupted at random while
 * producers add from several threads. A grant whose getter left must go to another getter
 * or back to the queue at once: every item is processed exactly once, no lease is left to
 * expire (no redelivery), and the queue ends empty with nothing in flight.
 */
class BatchedHandOffRaceTest {

	private static final int ITEMS = 4_000;

	private final String name = TestRedis.uniqueName("handoff");

	private final Map<String, AtomicInteger> processed = new ConcurrentHashMap<>();

	@Test
	void aGrantWhoseGetterLeftShouldGoToAnotherGetterOrBackToTheQueue() throws Exception {
		RedisQueue<String> queue = RedisQueue.builder(RedisQueueConnection.of(TestRedis.client()), this.name)
			.holder("racer")
			.build(ItemCodec.strings());
		AtomicBoolean stop = new AtomicBoolean();
		List<Thread> getters = new ArrayList<>();
		for (int g = 0; g < 6; g++) {
			getters.add(start(() -> take(queue, stop)));
		}
		Thread interrupter = start(() -> {
			while (!stop.get()) {
				getters.get(ThreadLocalRandom.current().nextInt(getters.size())).interrupt();
				try {
					Thread.sleep(0, 200_000);
				}
				catch (InterruptedException ex) {
					return;
				}
			}
		});
		List<Thread> producers = new ArrayList<>();
		for (int p = 0; p < 3; p++) {
			int first = p;
			producers.add(start(() -> {
				for (int i = first; i < ITEMS; i += 3) {
					queue.add("item-" + i);
				}
			}));
		}
		for (Thread producer : producers) {
			producer.join();
		}
		await().atMost(Duration.ofMinutes(2)).until(() -> this.processed.size() == ITEMS && idle(queue));
		stop.set(true);
		interrupter.join();
		for (Thread getter : getters) {
			getter.join(10_000);
		}
		this.processed.forEach((item, times) -> assertThat(times.get()).as(item + " processed").isEqualTo(1));
		assertThat(queue.stats()).as("nothing queued, in flight, expired or refused")
			.isEqualTo(new RedisQueueStats(0, 0, 0, 0, 0, 0, 0));
		queue.shutDown();
	}

	private static boolean idle(RedisQueue<String> queue) {
		RedisQueueStats stats = queue.stats();
		return stats.queued() == 0 && stats.inFlight() == 0;
	}

	private void take(RedisQueue<String> queue, AtomicBoolean stop) {
		while (!stop.get()) {
			Optional<String> item;
			try {
				item = queue.get(Duration.ofNanos(ThreadLocalRandom.current().nextLong(2_000_000)));
			}
			catch (InterruptedException ex) {
				continue;
			}
			// A grant that came with an interrupt is processed like any other.
			Thread.interrupted();
			item.ifPresent((taken) -> {
				this.processed.computeIfAbsent(taken, (key) -> new AtomicInteger()).incrementAndGet();
				queue.done(taken);
			});
		}
	}

	private static Thread start(Runnable task) {
		Thread thread = new Thread(task);
		thread.setDaemon(true);
		thread.start();
		return thread;
	}

}
