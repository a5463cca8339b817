package io.github.workqueue.redis.process;

import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.TreeMap;

import io.github.workqueue.redis.InFlightItem;
import io.github.workqueue.redis.ItemCodec;
import io.github.workqueue.redis.RedisQueue;
import io.github.workqueue.redis.RedisQueueConnection;
import io.github.workqueue.redis.RedisQueueStats;
import io.github.workqueue.redis.TestRedis;
import io.lettuce.core.api.sync.RedisCommands;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * An instance frozen mid-processing with {@code SIGSTOP} (what a long GC pause or a
 * network partition looks like to Redis) for longer than its leases: its items are
 * delivered to another instance, and when it runs again its late {@code done} calls are
 * rejected and do not end the other instance's processing, nor lose an add made
 * meanwhile.
 */
class PartitionTest {

	private static final Duration LEASE = Duration.ofSeconds(1);

	/**
	 * How long each instance works on an item: the frozen instance's late dones come
	 * while the other, which took the items later, still processes them.
	 */
	private static final long WORK_MILLIS = 6000;

	private final String name = TestRedis.uniqueName("partition");

	private final RedisCommands<String, String> redis = TestRedis.client().connect().sync();

	private final RedisQueue<String> producer = RedisQueue
		.builder(RedisQueueConnection.of(TestRedis.client()), this.name)
		.holder("producer")
		.leaseDuration(LEASE)
		.build(ItemCodec.strings());

	private WorkerInstance frozen;

	private WorkerInstance other;

	@AfterEach
	void stop() {
		for (WorkerInstance instance : new WorkerInstance[] { this.frozen, this.other }) {
			if (instance != null) {
				instance.process().destroyForcibly();
			}
		}
		this.producer.shutDown();
	}

	@Test
	void aFrozenInstanceShouldLoseItsItemsToAnotherAndBeFencedWhenItWakes() throws Exception {
		this.frozen = WorkerInstance.start(this.name, "frozen", LEASE, 2, false, WORK_MILLIS);
		add("a");
		add("b");
		// Bounds sized for a busy machine: a JVM to start, then its first batch.
		await().atMost(Duration.ofMinutes(2)).until(() -> holders().equals(Map.of("a", "frozen", "b", "frozen")));
		// Idle until the frozen leases expire: its getters then wake at the deadline and
		// would take the items at once if a lease were given up early.
		this.other = WorkerInstance.start(this.name, "other", LEASE, 2, false, WORK_MILLIS);

		this.frozen.pause();
		Map<String, Instant> frozenExpiry = new TreeMap<>();
		Map<String, Instant> otherGranted = new TreeMap<>();
		await().atMost(Duration.ofMinutes(2)).until(() -> {
			observeLeases(frozenExpiry, otherGranted);
			return otherGranted.size() == 2;
		});
		assertThat(frozenExpiry).containsOnlyKeys("a", "b");
		frozenExpiry.forEach((item, expiry) -> assertThat(otherGranted.get(item))
			.as("%s granted to the other instance no earlier than the frozen lease expired", item)
			.isAfterOrEqualTo(expiry));
		this.frozen.resume();
		add("a");

		// The frozen instance's workers end their work, then their dones are rejected.
		await().atMost(Duration.ofMillis(WORK_MILLIS).plusMinutes(1))
			.until(() -> this.producer.stats().rejectedDones() >= 2);
		assertThat(holders()).as("the late dones ended nothing of the other instance's processing")
			.isEqualTo(Map.of("a", "other", "b", "other"));
		await().atMost(Duration.ofMinutes(2)).until(() -> {
			RedisQueueStats stats = this.producer.stats();
			return stats.queued() == 0 && stats.inFlight() == 0
					&& "2".equals(this.redis.hget(this.name + ":seen", "a"));
		});
		RedisQueueStats stats = this.producer.stats();
		// Each lease that expired under a live worker shows as one rejected done: the
		// frozen
		// instance's two, and any the other instance lost if the machine starved it.
		assertThat(stats.redeliveries()).as("both items came back once their leases expired")
			.isGreaterThanOrEqualTo(2)
			.isEqualTo(stats.rejectedDones());
		assertThat(stats.parked()).isZero();
		assertThat(this.redis.hget(this.name + ":seenBy", "b")).isEqualTo("other");
	}

	private void add(String item) {
		this.redis.hincrby(this.name + ":versions", item, 1);
		this.producer.add(item);
	}

	/**
	 * Records the latest expiry seen of each frozen lease (it cannot renew once frozen)
	 * and when each item was granted to the other instance, both in Redis time.
	 */
	private void observeLeases(Map<String, Instant> frozenExpiry, Map<String, Instant> otherGranted) {
		for (InFlightItem lease : this.producer.inFlight()) {
			if (lease.holder().equals("frozen")) {
				frozenExpiry.merge(lease.item(), lease.expiresAt(), (a, b) -> a.isAfter(b) ? a : b);
			}
			else {
				otherGranted.put(lease.item(), lease.grantedAt());
			}
		}
	}

	private Map<String, String> holders() {
		Map<String, String> holders = new TreeMap<>();
		for (InFlightItem item : this.producer.inFlight()) {
			holders.put(item.item(), item.holder());
		}
		return holders;
	}

}
