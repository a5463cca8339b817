package io.github.workqueue.benchmarks;

import java.util.List;

import io.lettuce.core.RedisClient;
import io.lettuce.core.api.sync.RedisCommands;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The yardstick keeps the guarantees it is measured for, on the build's embedded Redis:
 * dedup while queued, FIFO, one holder at a time, an item re-added while processing runs
 * again after its done, and a done with a stale token changes nothing.
 */
class MinimalLuaQueueTest {

	private static MeasuredRedis redis;

	private static RedisClient client;

	private static RedisCommands<String, String> commands;

	private final MinimalLuaQueue queue = new MinimalLuaQueue(commands, "test-" + System.nanoTime(), 30_000_000);

	@BeforeAll
	static void start() throws Exception {
		redis = MeasuredRedis.start();
		client = RedisClient.create(redis.uri());
		commands = client.connect().sync();
		MinimalLuaQueue.load(commands);
	}

	@AfterAll
	static void stop() {
		client.shutdown();
		redis.close();
	}

	@Test
	void addsOfAQueuedItemShouldQueueItOnceInFirstAddOrder() {
		assertThat(this.queue.add(List.of("a", "b", "a"))).isEqualTo(2);
		assertThat(this.queue.add(List.of("c", "b"))).isEqualTo(1);
		assertThat(this.queue.len()).isEqualTo(3);
		assertThat(items(this.queue.cycle(List.of(), 10))).containsExactly("a", "b", "c");
	}

	@Test
	void anItemShouldHaveOneHolderAndRunAgainAfterItsDoneIfAddedMeanwhile() {
		this.queue.add(List.of("a"));
		List<MinimalLuaQueue.Lease> held = this.queue.cycle(List.of(), 1).leases();
		this.queue.add(List.of("a"));
		assertThat(this.queue.len()).as("in flight: dirty, not queued").isZero();
		assertThat(this.queue.cycle(List.of(), 1).leases()).as("one holder").isEmpty();
		MinimalLuaQueue.Cycle done = this.queue.cycle(held, 1);
		assertThat(done.accepted()).containsExactly(true);
		assertThat(items(done)).as("queued again by its done, and taken").containsExactly("a");
		assertThat(done.leases().get(0).token()).isNotEqualTo(held.get(0).token());
	}

	@Test
	void aDoneWithAStaleTokenShouldChangeNothing() {
		this.queue.add(List.of("a"));
		MinimalLuaQueue.Lease lease = this.queue.cycle(List.of(), 1).leases().get(0);
		MinimalLuaQueue.Lease stale = new MinimalLuaQueue.Lease("a", "0");
		assertThat(this.queue.cycle(List.of(stale), 0).accepted()).containsExactly(false);
		this.queue.add(List.of("a"));
		assertThat(this.queue.cycle(List.of(), 1).leases()).as("still held").isEmpty();
		assertThat(this.queue.cycle(List.of(lease), 0).accepted()).containsExactly(true);
		assertThat(this.queue.len()).isEqualTo(1);
	}

	private static List<String> items(MinimalLuaQueue.Cycle cycle) {
		return cycle.leases().stream().map(MinimalLuaQueue.Lease::item).toList();
	}

}
