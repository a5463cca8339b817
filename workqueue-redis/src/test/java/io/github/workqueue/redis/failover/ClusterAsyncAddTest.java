package io.github.workqueue.redis.failover;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.zip.CRC32;

import io.github.workqueue.redis.ItemCodec;
import io.github.workqueue.redis.RedisQueue;
import io.github.workqueue.redis.RedisQueueConnection;
import io.github.workqueue.redis.TestRedis;
import io.lettuce.core.cluster.ClusterClientOptions;
import io.lettuce.core.cluster.ClusterTopologyRefreshOptions;
import io.lettuce.core.cluster.RedisClusterClient;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * One producer thread adds, with {@code addAsync}, items of every shard of a queue spread
 * over three Redis Cluster masters, in turn, while the master of shard 0 is killed with
 * SIGKILL and its replica takes over: the other shards' adds keep being acknowledged
 * (their longest gap stays short), since a shard that does not answer holds only its own
 * adds, up to its bound.
 */
class ClusterAsyncAddTest {

	private static final int SHARDS = 3;

	/**
	 * Shorter than a command timeout (2 s): the others never held by the failing shard,
	 * not even by its second tries, whose library load waits only for the master that
	 * refused the call.
	 */
	private static final Duration LONGEST_GAP_OF_THE_OTHER_SHARDS = Duration.ofMillis(1500);

	@TempDir
	Path dir;

	@Test
	@SuppressWarnings("deprecation") // enableAllAdaptiveRefreshTriggers: what Spring
										// Boot's
										// refresh.adaptive sets
	void aFailingShardShouldNotHoldTheAsynchronousAddsOfTheOthers() throws Exception {
		try (ClusterWithReplicas cluster = new ClusterWithReplicas(this.dir)) {
			RedisClusterClient client = RedisClusterClient.create(cluster.seeds(Duration.ofSeconds(2)));
			client.setOptions(ClusterClientOptions.builder()
				.topologyRefreshOptions(ClusterTopologyRefreshOptions.builder()
					.enablePeriodicRefresh(Duration.ofSeconds(1))
					.enableAllAdaptiveRefreshTriggers()
					.build())
				.build());
			RedisQueue<String> queue = RedisQueue
				.builder(RedisQueueConnection.of(client), TestRedis.uniqueName("cluster-async-add"))
				.shards(SHARDS)
				.build(ItemCodec.strings());
			ConcurrentLinkedQueue<long[]> acknowledged = new ConcurrentLinkedQueue<>();
			AtomicInteger failed = new AtomicInteger();
			AtomicBoolean producing = new AtomicBoolean(true);
			Thread producer = new Thread(() -> {
				for (long n = 0; producing.get(); n++) {
					int shard = (int) (n % SHARDS);
					queue.addAsync(itemOfShard(shard, n)).whenComplete((ok, failure) -> {
						if (failure == null) {
							acknowledged.add(new long[] { shard, System.nanoTime() });
						}
						else {
							failed.incrementAndGet();
						}
					});
					pause(Duration.ofMillis(2));
				}
			}, "async-producer");
			producer.start();
			try {
				await().atMost(Duration.ofSeconds(30)).until(() -> acknowledged.size() > 3 * SHARDS);
				long killed = System.nanoTime();
				cluster.master(0).kill();
				cluster.awaitPromoted(0, Duration.ofSeconds(30));
				await().atMost(Duration.ofSeconds(30))
					.pollInterval(Duration.ofMillis(50))
					.until(() -> acknowledged.stream().anyMatch((ack) -> ack[0] == 0 && ack[1] - killed > 0));
				long resumed = System.nanoTime();
				Duration gap = longestGap(acknowledged, killed, resumed);
				System.out.println("Cluster, master of shard 0 killed under addAsync: shard 0 acknowledged again after "
						+ Duration.ofNanos(resumed - killed).toMillis() + " ms, the other shards' longest gap "
						+ gap.toMillis() + " ms, " + failed.get() + " adds failed");
				assertThat(gap).as("the longest gap between the other shards' acknowledgements")
					.isLessThan(LONGEST_GAP_OF_THE_OTHER_SHARDS);
			}
			finally {
				producing.set(false);
				producer.join();
				queue.shutDown();
				// Bounded: a client with a node that was killed can wait without end for
				// that node's connection to close.
				try {
					client.shutdownAsync(0, 2, TimeUnit.SECONDS).get(10, TimeUnit.SECONDS);
				}
				catch (TimeoutException | ExecutionException ex) {
					System.out.println("The cluster client did not shut down: " + ex);
				}
			}
		}
	}

	/**
	 * The longest time between {@code from} and {@code to} with no add of shards 1..n
	 * acknowledged.
	 */
	private static Duration longestGap(ConcurrentLinkedQueue<long[]> acknowledged, long from, long to) {
		List<Long> times = new ArrayList<>();
		for (long[] ack : acknowledged) {
			if (ack[0] != 0 && ack[1] - from > 0 && ack[1] - to < 0) {
				times.add(ack[1]);
			}
		}
		times.sort(Long::compare);
		long longest = 0;
		long previous = from;
		for (long time : times) {
			longest = Math.max(longest, time - previous);
			previous = time;
		}
		return Duration.ofNanos(Math.max(longest, to - previous));
	}

	private static void pause(Duration duration) {
		try {
			Thread.sleep(duration.toMillis());
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
		}
	}

	private static String itemOfShard(int shard, long n) {
		for (int attempt = 0;; attempt++) {
			String item = "a" + n + "." + attempt;
			if (shardOf(item) == shard) {
				return item;
			}
		}
	}

	/** As Shards: the CRC-32 of the encoded item modulo the shards. */
	private static int shardOf(String item) {
		CRC32 crc = new CRC32();
		crc.update(item.getBytes(StandardCharsets.UTF_8));
		return (int) (crc.getValue() % SHARDS);
	}

}
