package io.github.workqueue.redis;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import java.util.stream.IntStream;
import java.util.zip.CRC32;

import io.github.workqueue.core.AddOptions;
import io.github.workqueue.core.RateLimitingQueue;
import io.github.workqueue.core.WorkQueue;
import io.lettuce.core.RedisClient;
import io.lettuce.core.RedisException;
import io.lettuce.core.RedisURI;
import io.lettuce.core.api.sync.RedisCommands;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import redis.embedded.RedisServer;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.assertj.core.api.Assertions.assertThatNullPointerException;

/**
 * {@link RedisQueue#addAll}: the same rules as one {@code add} after another, sent
 * together.
 */
class AddAllTest {

	private final List<RedisQueue<?>> queues = new ArrayList<>();

	private final String name = TestRedis.uniqueName("add-all");

	@AfterEach
	void shutDown() {
		this.queues.forEach(RedisQueue::shutDown);
	}

	private RedisQueue<String> instance(RedisClient client, String holder) {
		RedisQueue<String> queue = RedisQueue.builder(RedisQueueConnection.of(client), this.name)
			.holder(holder)
			.build(ItemCodec.strings());
		this.queues.add(queue);
		return queue;
	}

	@Test
	void itemsShouldBeQueuedInOrderAndJoinThoseAlreadyDirty() throws InterruptedException {
		RedisQueue<String> queue = instance(TestRedis.client(), "a");
		queue.add("c");
		queue.addAll(List.of("a", "b", "c", "a"));
		assertThat(queue.len()).isEqualTo(3);
		assertThat(takeAll(queue)).containsExactly("c", "a", "b");
	}

	@Test
	void aKeyRaisedByTheCallShouldKeepItsPlaceAsInMemory() throws InterruptedException {
		RedisQueue<String> queue = instance(TestRedis.client(), "a");
		RateLimitingQueue<String> memory = WorkQueue.builder().buildRateLimiting();
		for (RateLimitingQueue<String> each : List.of(queue, memory)) {
			each.add("b", AddOptions.priority(-1));
			each.addAll(List.of("c", "b"));
		}
		List<String> inMemory = new ArrayList<>();
		for (int i = 0; i < 2; i++) {
			inMemory.add(memory.get().orElseThrow());
		}
		assertThat(inMemory).as("b keeps its place, by the time it was first queued").containsExactly("b", "c");
		assertThat(takeAll(queue)).isEqualTo(inMemory);
	}

	@Test
	void withFairnessATenantRaisedByTheCallShouldTakeItsTurnAfterTheTenantsBeforeIt() throws InterruptedException {
		RedisQueue<String> queue = track(RedisQueue.builder(RedisQueueConnection.of(TestRedis.client()), this.name)
			.fairness((String item) -> List.of(item.substring(0, 1)))
			.build(ItemCodec.strings()));
		queue.add("x1", AddOptions.priority(-1));
		queue.addAll(List.of("y1", "x1"));
		assertThat(takeAll(queue)).as("tenant y's turn first: y1 was queued before x1 was raised")
			.containsExactly("y1", "x1");
	}

	@Test
	void withAPriorityTheItemsShouldGoBeforeThoseOfLowerOnes() throws InterruptedException {
		RedisQueue<String> queue = instance(TestRedis.client(), "a");
		queue.add("low");
		queue.addAll(List.of("high-1", "high-2"), AddOptions.priority(5));
		assertThat(queue.lenByPriority()).containsEntry(5, 2).containsEntry(0, 1);
		assertThat(takeAll(queue)).containsExactly("high-1", "high-2", "low");
	}

	@Test
	void withADelayTheItemsShouldWait() {
		RedisQueue<String> queue = instance(TestRedis.client(), "a");
		queue.addAll(List.of("later-1", "later-2"), AddOptions.delay(Duration.ofHours(1)));
		assertThat(queue.waitingLen()).isEqualTo(2);
		assertThat(queue.len()).isZero();
	}

	@Test
	void anItemBeingProcessedShouldRunAgainAfterItsDone() throws InterruptedException {
		RedisQueue<String> queue = instance(TestRedis.client(), "a");
		queue.add("x");
		assertThat(queue.get(Duration.ofSeconds(5))).contains("x");
		queue.addAll(List.of("x", "y"));
		assertThat(queue.len()).as("x waits for its done").isEqualTo(1);
		queue.done("x");
		assertThat(takeAll(queue)).containsExactly("y", "x");
	}

	@Test
	void aNullItemShouldBeNamedByItsPositionAndNothingAdded() {
		RedisQueue<String> queue = instance(TestRedis.client(), "a");
		assertThatNullPointerException().isThrownBy(() -> queue.addAll(Arrays.asList("a", "b", null)))
			.withMessageContaining("position 2");
		assertThat(queue.len()).isZero();
	}

	@Test
	void aThousandAddsShouldTakeAFewRoundTrips() throws InterruptedException {
		RedisQueue<String> queue = instance(TestRedis.client(), "a");
		List<String> items = IntStream.range(0, 1000).mapToObj((i) -> "item-" + i).toList();
		RedisCommands<String, String> stats = TestRedis.client().connect().sync();
		long before = functionCalls(stats);
		queue.addAll(items);
		long calls = functionCalls(stats) - before;
		// 256 adds per part: 4 calls; other tests' instances on the same server may run
		// a few scripts meanwhile, one add after another would run 1000.
		assertThat(calls).isBetween(4L, 40L);
		assertThat(queue.len()).isEqualTo(1000);
		assertThat(takeAll(queue)).containsExactlyElementsOf(items);
	}

	@Test
	void afterShutdownEveryItemShouldBeDropped() {
		RedisQueue<String> queue = instance(TestRedis.client(), "a");
		RedisQueue<String> other = instance(TestRedis.client(), "b");
		queue.shutDown();
		queue.addAll(List.of("a", "b"));
		assertThat(other.len()).isZero();
	}

	@Test
	void theItemsOfEveryShardShouldBeProcessedOnce() throws InterruptedException {
		RedisQueue<String> adder = this
			.track(RedisQueue.builder(RedisQueueConnection.of(TestRedisCluster.client()), this.name)
				.holder("adder")
				.shards(3)
				.build(ItemCodec.strings()));
		RedisQueue<String> taker = this
			.track(RedisQueue.builder(RedisQueueConnection.of(TestRedisCluster.client()), this.name)
				.holder("taker")
				.shards(3)
				.build(ItemCodec.strings()));
		List<String> items = IntStream.range(0, 600).mapToObj((i) -> "item-" + i).toList();
		adder.addAll(items);
		List<String> taken = takeAll(taker);
		assertThat(taken).containsExactlyInAnyOrderElementsOf(items);
		for (int shard = 0; shard < 3; shard++) {
			int of = shard;
			List<String> added = items.stream().filter((item) -> shardOf(item) == of).toList();
			assertThat(taken.stream().filter((item) -> shardOf(item) == of).toList())
				.as("shard " + shard + " in the order added")
				.containsExactlyElementsOf(added);
		}
	}

	@Test
	void throughAnOutageTheCallShouldFailAndAfterItWorkAgain() throws InterruptedException {
		int port = TestRedis.freePort();
		RedisServer server = TestRedis.startServer(port);
		// A short command timeout: Lettuce holds a command through an outage until then.
		RedisClient client = RedisClient
			.create(RedisURI.builder().withHost("127.0.0.1").withPort(port).withTimeout(Duration.ofSeconds(2)).build());
		try {
			RedisQueue<String> queue = instance(client, "a");
			queue.addAll(List.of("before"));
			server.stop();
			assertThatExceptionOfType(RedisException.class).isThrownBy(() -> queue.addAll(List.of("during", "too")));
			server = TestRedis.startServer(port);
			queue.addAll(List.of("after"));
			assertThat(takeAll(queue)).contains("after");
		}
		finally {
			this.queues.forEach(RedisQueue::shutDown);
			this.queues.clear();
			client.shutdown();
			server.stop();
		}
	}

	private RedisQueue<String> track(RedisQueue<String> queue) {
		this.queues.add(queue);
		return queue;
	}

	private static List<String> takeAll(RedisQueue<String> queue) throws InterruptedException {
		List<String> taken = new ArrayList<>();
		Optional<String> item;
		while ((item = queue.get(Duration.ofMillis(500))).isPresent()) {
			taken.add(item.get());
			queue.done(item.get());
		}
		return taken;
	}

	/** The shard of an item on a queue of three: the stable hash of its encoded form. */
	private static int shardOf(String item) {
		CRC32 crc = new CRC32();
		crc.update(item.getBytes(StandardCharsets.UTF_8));
		return (int) (crc.getValue() % 3);
	}

	private static long functionCalls(RedisCommands<String, String> stats) {
		for (String line : stats.info("commandstats").split("\\r?\\n")) {
			if (line.startsWith("cmdstat_fcall:")) {
				return Long.parseLong(line.substring(line.indexOf("calls=") + 6, line.indexOf(',')));
			}
		}
		return 0;
	}

}
