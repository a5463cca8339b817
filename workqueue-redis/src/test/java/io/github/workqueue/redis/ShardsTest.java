package io.github.workqueue.redis;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.zip.CRC32;

import io.github.workqueue.core.FakeClock;
import io.github.workqueue.core.ratelimit.BucketRateLimiter;
import io.lettuce.core.cluster.SlotHash;
import io.lettuce.core.cluster.api.sync.RedisAdvancedClusterCommands;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

/**
 * A queue spread over several shards: each shard on its own cluster master, every item in
 * one shard, every shard served, and token buckets kept queue-wide. (The contract itself
 * runs on three shards in {@link QueueContractTest}.)
 */
class ShardsTest {

	private final List<RedisQueue<String>> queues = new ArrayList<>();

	@AfterEach
	void shutDown() {
		this.queues.forEach(RedisQueue::shutDown);
	}

	@Test
	void theShardsOfAQueueShouldLieOnDifferentMastersOfTheCluster() {
		String name = TestRedis.uniqueName("shards");
		RedisQueue<String> queue = track(RedisQueue.builder(RedisQueueConnection.of(TestRedisCluster.client()), name)
			.shards(3)
			.build(ItemCodec.strings()));
		for (int i = 0; i < 60; i++) {
			queue.add("item-" + i);
		}
		RedisAdvancedClusterCommands<String, String> cluster = TestRedisCluster.client().connect().sync();
		Set<String> masters = new HashSet<>();
		for (int shard = 0; shard < 3; shard++) {
			String queueKey = shardKey(cluster, name, shard);
			assertThat(cluster.llen(queueKey)).as("items in shard " + shard).isPositive();
			masters.add(TestRedisCluster.client()
				.getPartitions()
				.getPartitionBySlot(SlotHash.getSlot(queueKey))
				.getNodeId());
		}
		assertThat(masters).as("one master per shard").hasSize(3);
		assertThat(queue.len()).isEqualTo(60);
		assertThat(queue.shards()).isEqualTo(3);
	}

	@Test
	void getsShouldServeEveryShardInTurn() throws InterruptedException {
		RedisQueue<String> queue = track(
				RedisQueue.builder(RedisQueueConnection.of(TestRedis.client()), TestRedis.uniqueName("shards"))
					.shards(3)
					.build(ItemCodec.strings()));
		for (int i = 0; i < 300; i++) {
			queue.add("item-" + i);
		}
		Set<String> firstThree = new HashSet<>();
		for (int i = 0; i < 3; i++) {
			String item = queue.get(Duration.ofSeconds(5)).orElseThrow();
			firstThree.add(item);
			queue.done(item);
		}
		Set<Integer> shards = new HashSet<>();
		for (String item : firstThree) {
			shards.add(shardOf(item));
		}
		assertThat(shards).as("three gets in a row take from all three shards").hasSize(3);
		int taken = 3;
		Optional<String> item;
		while ((item = queue.get(Duration.ZERO)).isPresent()) {
			queue.done(item.get());
			taken++;
		}
		assertThat(taken).as("a get with no time left still asks every shard").isEqualTo(300);
	}

	@Test
	void aBucketShouldLimitTheWholeQueueNotEachShard() {
		FakeClock clock = new FakeClock();
		RedisQueue<String> queue = track(
				RedisQueue.builder(RedisQueueConnection.of(TestRedisCluster.client()), TestRedis.uniqueName("shards"))
					.shards(3)
					.timeForTests(clock)
					.rateLimiter(new BucketRateLimiter<>(10, 1, clock))
					.build(ItemCodec.strings()));
		List<Duration> delays = new ArrayList<>();
		Set<Integer> shards = new HashSet<>();
		for (int i = 0; i < 10; i++) {
			delays.add(queue.addRateLimited("item-" + i));
			shards.add(shardOf("item-" + i));
		}
		assertThat(shards).as("the items lie in several shards").hasSizeGreaterThan(1);
		List<Duration> expected = new ArrayList<>();
		for (int i = 0; i < 10; i++) {
			expected.add(Duration.ofMillis(100L * i));
		}
		assertThat(delays).as("one bucket of 10 per second for all shards").isEqualTo(expected);
		assertThat(queue.waitingLen()).isEqualTo(9);
	}

	@Test
	void shardsShouldBeFromOneTo1024() {
		RedisQueueBuilder builder = RedisQueue.builder(RedisQueueConnection.of(TestRedis.client()), "x");
		assertThatIllegalArgumentException().isThrownBy(() -> builder.shards(0)).withMessageContaining("was 0");
		assertThatIllegalArgumentException().isThrownBy(() -> builder.shards(1025)).withMessageContaining("1024");
	}

	/** The shard an item maps to, as every instance computes it: CRC-32 modulo 3. */
	private static int shardOf(String item) {
		CRC32 crc = new CRC32();
		crc.update(item.getBytes(StandardCharsets.UTF_8));
		return (int) (crc.getValue() % 3);
	}

	/**
	 * The FIFO key of a shard, found by its name pattern ({prefix:name:shard[.n]}:queue).
	 */
	private static String shardKey(RedisAdvancedClusterCommands<String, String> cluster, String name, int shard) {
		List<String> keys = cluster.keys("{workqueue:" + name + ":" + shard + "*}:queue");
		assertThat(keys).as("the queue key of shard " + shard).hasSize(1);
		return keys.get(0);
	}

	private RedisQueue<String> track(RedisQueue<String> queue) {
		this.queues.add(queue);
		return queue;
	}

}
