package io.github.workqueue.redis;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.IntStream;

import io.github.workqueue.core.AddOptions;
import io.github.workqueue.core.FakeClock;
import io.github.workqueue.core.WorkQueue;
import io.lettuce.core.api.sync.RedisCommands;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The queue's busiest keys (dirty-since, leases, and the priorities and fairness keys of
 * the items present) kept as hash tables and a skip list after a batch of many items, not
 * as listpacks that every lookup scans ({@code includes/state.lua}, {@code LONG_MEMBER}),
 * with nothing in them but what the queue stores: the field or member that converts a key
 * is gone when the batch ends.
 */
class KeyEncodingTest {

	private final FakeClock clock = new FakeClock();

	private final String name = TestRedis.uniqueName("key-encoding");

	private final List<RedisQueue<?>> queues = new ArrayList<>();

	private final RedisCommands<String, String> redis = TestRedis.client().connect().sync();

	@AfterEach
	void shutDown() {
		this.queues.forEach(WorkQueue::shutDown);
	}

	private RedisQueue<String> instance(int prefetch) {
		RedisQueue<String> queue = RedisQueue.builder(RedisQueueConnection.of(TestRedis.client()), this.name)
			.holder("a")
			.timeForTests(this.clock)
			.prefetch(prefetch)
			.adaptivePrefetch(false)
			.build(ItemCodec.strings());
		this.queues.add(queue);
		return queue;
	}

	@Test
	void aBatchOfManyGrantsShouldLeaveOnlyTheLeasesInASkipList() throws InterruptedException {
		RedisQueue<String> queue = instance(64);
		List<String> items = IntStream.range(0, 100).mapToObj((i) -> "item-" + i).toList();
		queue.addAll(items);
		assertThat(queue.get(Duration.ofSeconds(5))).contains("item-0");
		String leases = key("leases");
		assertThat(this.redis.objectEncoding(leases)).isEqualTo("skiplist");
		assertThat(this.redis.zrange(leases, 0, -1)).as("the leased items, the one taken and 64 ahead")
			.containsExactlyInAnyOrderElementsOf(items.subList(0, 65));
	}

	@Test
	void aSmallBatchShouldLeaveBothKeysAsRedisKeepsThem() throws InterruptedException {
		RedisQueue<String> queue = instance(0);
		queue.addAll(List.of("a", "b", "c"));
		assertThat(queue.get(Duration.ofSeconds(5))).contains("a");
		assertThat(this.redis.objectEncoding(key("leases"))).isEqualTo("listpack");
		assertThat(this.redis.objectEncoding(key("dirty-since"))).isEqualTo("listpack");
	}

	@Test
	void theDirtyItemsShouldBeInAHashTableWithTheirTimes() {
		RedisQueue<String> queue = instance(0);
		queue.add("first");
		this.clock.step(Duration.ofSeconds(3));
		List<String> many = IntStream.range(0, 16).mapToObj((i) -> "item-" + i).toList();
		queue.addAll(many);
		String dirty = key("dirty-since");
		assertThat(this.redis.objectEncoding(dirty)).isEqualTo("hashtable");
		long then = this.clock.nanoTime() / 1000;
		assertThat(Long.parseLong(this.redis.hget(dirty, "first"))).isEqualTo(then - 3_000_000);
		assertThat(this.redis.hmget(dirty, many.toArray(new String[0])))
			.allSatisfy((time) -> assertThat(Long.parseLong(time.getValue())).isEqualTo(then));
		assertThat(this.redis.hkeys(dirty)).hasSize(17).contains("first").containsAll(many);
		assertThat(queue.len()).isEqualTo(17);
	}

	@Test
	void manyItemsWithPrioritiesAndKeysShouldLeaveOnlyTheirFieldsInHashTables() {
		RedisQueue<String> queue = RedisQueue.builder(RedisQueueConnection.of(TestRedis.client()), this.name)
			.holder("a")
			.timeForTests(this.clock)
			.fairness((String item) -> List.of(item.substring(0, 1)))
			.build(ItemCodec.strings());
		this.queues.add(queue);
		List<String> many = IntStream.range(0, 16).mapToObj((i) -> "t" + i).toList();
		queue.addAll(many, AddOptions.priority(5));
		for (String suffix : List.of("queue:prio", "queue:fair")) {
			String key = key(suffix);
			assertThat(this.redis.objectEncoding(key)).as(suffix).isEqualTo("hashtable");
			assertThat(this.redis.hkeys(key)).as(suffix).containsExactlyInAnyOrderElementsOf(many);
		}
		assertThat(this.redis.hget(key("queue:prio"), "t0")).isEqualTo("5");
		assertThat(queue.lenByPriority()).containsEntry(5, 16);
	}

	/** The only key of this queue with the given suffix (one shard). */
	private String key(String suffix) {
		List<String> found = this.redis.keys("*" + this.name + "*:" + suffix);
		assertThat(found).as(suffix).hasSize(1);
		return found.get(0);
	}

}
