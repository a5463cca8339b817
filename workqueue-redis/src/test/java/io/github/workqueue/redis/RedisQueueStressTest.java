package io.github.workqueue.redis;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;

import io.github.workqueue.core.AddOptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.Parameter;
import org.junit.jupiter.params.ParameterizedClass;
import org.junit.jupiter.params.provider.ValueSource;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * The races of one JVM against Redis: three instances with four workers each on a small
 * key space, producers adding (some with delays) while one instance is shut down with a
 * drain in the middle of the run. Checked throughout: no key is processed by two workers
 * at once; at the end: every add was followed by a processing that saw it, no lease
 * expired or was refused, nothing was parked, and the shared queue is empty. Run three
 * times: with plain adds (the FIFO), with adds at three priorities (the ready set of
 * priorities without keys, and the moves between it and the FIFO), and with the same adds
 * on a queue with fairness over four tenants (the priority trees, and the moves between
 * them and the FIFO), where no key of priorities or fairness may be left at the end. And
 * run a fourth time with plain adds on instances that lease up to 8 items ahead of their
 * workers (the buffer, its hand-out, and its give-back at the drain).
 */
@ParameterizedClass(name = "{0}")
@ValueSource(strings = { "fifo", "priorities", "fairness", "prefetch" })
class RedisQueueStressTest {

	@Parameter
	String mode;

	private static final int KEYS = 64;

	private static final int ADDS = 20_000;

	private final String name = TestRedis.uniqueName("stress");

	private final Map<String, AtomicInteger> versions = new ConcurrentHashMap<>();

	private final Map<String, Integer> seen = new ConcurrentHashMap<>();

	private final Map<String, Thread> processing = new ConcurrentHashMap<>();

	private final AtomicReference<String> violation = new AtomicReference<>();

	@Test
	void invariantsShouldHoldWhileAnInstanceShutsDownMidRun() throws Exception {
		List<RedisQueue<String>> instances = new ArrayList<>();
		List<Thread> threads = new ArrayList<>();
		for (int i = 0; i < 3; i++) {
			RedisQueueBuilder builder = RedisQueue.builder(RedisQueueConnection.of(TestRedis.client()), this.name)
				.holder("instance-" + i);
			if (this.mode.equals("fairness")) {
				builder.fairness((String key) -> List.of("t" + (key.hashCode() & 3)));
			}
			if (this.mode.equals("prefetch")) {
				builder.prefetch(8);
			}
			RedisQueue<String> instance = builder.build(ItemCodec.strings());
			instances.add(instance);
			for (int w = 0; w < 4; w++) {
				threads.add(start(() -> work(instance)));
			}
		}
		List<Thread> producers = new ArrayList<>();
		for (int p = 0; p < 2; p++) {
			RedisQueue<String> producer = instances.get(p + 1);
			producers.add(start(() -> produce(producer)));
		}
		Thread.sleep(300);
		boolean drained = instances.get(0).shutDownWithDrain(Duration.ofSeconds(30));
		assertThat(drained).as("instance 0's workers finished their items").isTrue();
		for (Thread producer : producers) {
			producer.join();
		}
		RedisQueue<String> observer = instances.get(1);
		await().atMost(Duration.ofMinutes(2)).until(() -> {
			RedisQueueStats stats = observer.stats();
			return stats.queued() == 0 && stats.waiting() == 0 && stats.inFlight() == 0;
		});
		assertThat(this.violation.get()).as("a key processed by two workers at once").isNull();
		this.versions.forEach((key, version) -> assertThat(this.seen.get(key)).as("last add of " + key + " was seen")
			.isEqualTo(version.get()));
		assertThat(observer.stats()).isEqualTo(new RedisQueueStats(0, 0, 0, 0, 0, 0, 0));
		assertThat(observer.lenByPriority()).isEmpty();
		assertThat(observer.lenByFairnessKey()).isEmpty();
		try (var connection = TestRedis.client().connect()) {
			assertThat(connection.sync().keys("*" + this.name + "*"))
				.as("no key of priorities or fairness (named after the queue's list) is left: the items' "
						+ "priorities and keys, the ready set, the levels and the trees are gone")
				.noneMatch((key) -> key.contains(":queue:"));
		}
		instances.forEach(RedisQueue::shutDown);
		for (Thread thread : threads) {
			thread.join(10_000);
			assertThat(thread.isAlive()).as("worker ended after shutdown").isFalse();
		}
	}

	private void produce(RedisQueue<String> producer) {
		ThreadLocalRandom random = ThreadLocalRandom.current();
		for (int i = 0; i < ADDS / 2; i++) {
			String key = "k" + random.nextInt(KEYS);
			this.versions.computeIfAbsent(key, (k) -> new AtomicInteger()).incrementAndGet();
			Duration delay = (random.nextInt(10) == 0) ? Duration.ofMillis(random.nextInt(1, 20)) : Duration.ZERO;
			if (prioritized()) {
				producer.add(key, AddOptions.priority(random.nextInt(-1, 2)).withDelay(delay));
			}
			else if (delay.isZero()) {
				producer.add(key);
			}
			else {
				producer.addAfter(key, delay);
			}
		}
	}

	private void work(RedisQueue<String> queue) {
		try {
			while (true) {
				Optional<String> taken = queue.get();
				if (taken.isEmpty()) {
					return;
				}
				String key = taken.get();
				Thread other = this.processing.putIfAbsent(key, Thread.currentThread());
				if (other != null) {
					this.violation.compareAndSet(null, key + " taken by " + Thread.currentThread().getName() + " while "
							+ other.getName() + " processed it");
				}
				this.seen.put(key, this.versions.get(key).get());
				this.processing.remove(key, Thread.currentThread());
				queue.done(key);
			}
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
		}
	}

	private boolean prioritized() {
		return this.mode.equals("priorities") || this.mode.equals("fairness");
	}

	private static Thread start(Runnable task) {
		Thread thread = new Thread(task);
		thread.start();
		return thread;
	}

}
