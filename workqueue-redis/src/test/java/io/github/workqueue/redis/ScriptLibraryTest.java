package io.github.workqueue.redis;

import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

import io.lettuce.core.FlushMode;
import io.lettuce.core.RedisClient;
import io.lettuce.core.api.sync.RedisCommands;
import io.lettuce.core.cluster.RedisClusterClient;
import io.lettuce.core.cluster.models.partitions.RedisClusterNode;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import redis.embedded.RedisServer;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The queue's scripts run as functions of one library that each server is given when it
 * lacks it (a new server, one restarted without persistence, a master added to a
 * cluster), and as scripts sent with {@code EVALSHA} where functions are refused.
 */
class ScriptLibraryTest {

	private final List<RedisQueue<String>> queues = new ArrayList<>();

	private final List<Runnable> cleanUps = new ArrayList<>();

	@AfterEach
	void shutDown() {
		this.queues.forEach(RedisQueue::shutDown);
		this.cleanUps.forEach(Runnable::run);
	}

	@Test
	void aServerThatLostTheLibraryShouldBeGivenItAgain() throws InterruptedException {
		RedisCommands<String, String> redis = redis();
		RedisQueue<String> queue = standaloneQueue("library");
		queue.add("before");
		assertThat(libraries(redis)).as("the library, loaded by the first call").hasSize(1);

		redis.functionFlush(FlushMode.SYNC);
		queue.add("after");

		assertThat(libraries(redis)).as("the library, loaded again").hasSize(1);
		assertThat(takeAll(queue, 2)).containsExactly("before", "after");
		assertThat(redis.info("commandstats")).as("no script was sent").doesNotContain("cmdstat_evalsha");
	}

	@Test
	void aReloadShouldKeepAnInterruptForTheCaller() {
		RedisCommands<String, String> redis = redis();
		RedisQueue<String> queue = standaloneQueue("library-interrupt");
		queue.add("a");
		redis.functionFlush(FlushMode.SYNC);

		Thread.currentThread().interrupt();
		try {
			assertThat(queue.len()).as("the length, read after the library was loaded again").isOne();
			assertThat(Thread.currentThread().isInterrupted()).as("the interrupt, kept").isTrue();
		}
		finally {
			Thread.interrupted();
		}
	}

	@Test
	void threadsThatAllFindTheLibraryMissingShouldAllGetThrough() throws Exception {
		RedisCommands<String, String> redis = redis();
		RedisQueue<String> queue = standaloneQueue("library-race");
		queue.add("warm");
		int threads = 8;
		int rounds = 20;
		for (int round = 0; round < rounds; round++) {
			redis.functionFlush(FlushMode.SYNC);
			CountDownLatch start = new CountDownLatch(1);
			List<Future<?>> calls = new ArrayList<>();
			ExecutorService pool = Executors.newFixedThreadPool(threads);
			for (int t = 0; t < threads; t++) {
				String item = "r" + round + "-t" + t;
				calls.add(pool.submit(() -> {
					start.await();
					queue.addAfter(item, Duration.ofHours(1));
					return null;
				}));
			}
			start.countDown();
			for (Future<?> call : calls) {
				call.get(30, TimeUnit.SECONDS);
			}
			pool.shutdown();
		}
		assertThat(queue.stats().waiting()).as("every delayed add arrived").isEqualTo(threads * rounds);
		assertThat(libraries(redis)).hasSize(1);
	}

	@Test
	void everyMasterOfAClusterShouldBeGivenTheLibraryAgain() throws InterruptedException {
		RedisClusterClient cluster = TestRedisCluster.client();
		RedisQueue<String> queue = track(
				RedisQueue.builder(RedisQueueConnection.of(cluster), TestRedis.uniqueName("library-cluster"))
					.shards(3)
					.build(ItemCodec.strings()));
		queue.add("warm");
		takeAll(queue, 1);
		var connection = cluster.connect();
		this.cleanUps.add(connection::close);
		List<RedisCommands<String, String>> masters = new ArrayList<>();
		for (RedisClusterNode node : connection.getPartitions()) {
			if (node.is(RedisClusterNode.NodeFlag.UPSTREAM)) {
				masters.add(connection.getConnection(node.getNodeId()).sync());
			}
		}
		assertThat(masters).hasSize(3);
		masters.forEach((master) -> master.functionFlush(FlushMode.SYNC));

		for (int i = 0; i < 30; i++) {
			queue.add("item-" + i);
		}

		assertThat(new HashSet<>(takeAll(queue, 30))).hasSize(30);
		for (RedisCommands<String, String> master : masters) {
			assertThat(libraries(master)).as("the library on every master").hasSize(1);
		}
	}

	@Test
	void aServerThatRefusesFunctionsShouldBeSentScripts() throws InterruptedException {
		int port = TestRedis.freePort();
		RedisServer server = TestRedis.startServer(port, "rename-command FCALL \"\"");
		this.cleanUps.add(server::stop);
		RedisClient client = RedisClient.create("redis://127.0.0.1:" + port);
		this.cleanUps.add(0, client::shutdown);
		RedisQueue<String> queue = track(
				RedisQueue.builder(RedisQueueConnection.of(client), "refused").build(ItemCodec.strings()));

		queue.add("a");
		queue.add("b");
		String taken = queue.get(Duration.ofSeconds(5)).orElseThrow();
		queue.done(taken);

		assertThat(taken).isEqualTo("a");
		assertThat(queue.len()).isOne();
		String stats = client.connect().sync().info("commandstats");
		// The connection closes with the client, in shutDown().
		assertThat(stats).contains("cmdstat_evalsha").doesNotContain("cmdstat_fcall");
	}

	private RedisCommands<String, String> redis() {
		var connection = TestRedis.client().connect();
		this.cleanUps.add(connection::close);
		return connection.sync();
	}

	private static List<Map<String, Object>> libraries(RedisCommands<String, String> redis) {
		return redis.functionList("workqueue_*");
	}

	private static List<String> takeAll(RedisQueue<String> queue, int count) throws InterruptedException {
		List<String> taken = new ArrayList<>();
		Set<String> seen = new HashSet<>();
		while (taken.size() < count) {
			String item = queue.get(Duration.ofSeconds(5)).orElseThrow();
			assertThat(seen.add(item)).as("taken once: " + item).isTrue();
			taken.add(item);
			queue.done(item);
		}
		return taken;
	}

	private RedisQueue<String> standaloneQueue(String hint) {
		return track(RedisQueue.builder(RedisQueueConnection.of(TestRedis.client()), TestRedis.uniqueName(hint))
			.build(ItemCodec.strings()));
	}

	private RedisQueue<String> track(RedisQueue<String> queue) {
		this.queues.add(queue);
		return queue;
	}

}
