package io.github.workqueue.redis.failover;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.zip.CRC32;

import io.lettuce.core.cluster.ClusterClientOptions;
import io.lettuce.core.cluster.ClusterTopologyRefreshOptions;
import io.lettuce.core.cluster.RedisClusterClient;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.junit.jupiter.api.io.TempDir;

import io.github.workqueue.redis.ItemCodec;
import io.github.workqueue.redis.RedisQueue;
import io.github.workqueue.redis.RedisQueueConnection;
import io.github.workqueue.redis.TestRedis;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Two instances of a queue spread over three shards of a Redis Cluster with a replica per
 * master, their workers keeping up, and producers that each add items of one shard (as
 * requests for different keys would). Two masters are killed with SIGKILL in turn; while
 * a replica takes over, the items of the other shards keep being added and processed (the
 * longest pause between their dones stays short), and the failed shard's items resume
 * once its replica serves. Then the producers stop, the workers finish what is queued,
 * and the ledger ({@link Ledger}) is read: fencing tokens never repeat, nothing is
 * parked, and what the failovers lost (writes not yet replicated) is reported. With
 * {@code replicas-ack: 1} (the killed master restarted, so that the promoted one has a
 * replica again) no acknowledged add or done is lost.
 */
class ClusterFailoverTest {

	private static final int SHARDS = 3;

	/**
	 * Longer than a command timeout (2 s) and one ask's patience: a stall of the whole
	 * queue.
	 */
	private static final Duration LONGEST_PAUSE_OF_THE_OTHER_SHARDS = Duration.ofMillis(1500);

	@TempDir
	Path dir;

	private final List<RedisClusterClient> clients = new ArrayList<>();

	@AfterEach
	void shutDown() {
		for (RedisClusterClient client : this.clients) {
			// Bounded: a client with a node that was killed can wait without end for that
			// node's connection to close.
			try {
				client.shutdownAsync(0, 2, TimeUnit.SECONDS).get(10, TimeUnit.SECONDS);
			}
			catch (TimeoutException | ExecutionException ex) {
				System.out.println("A cluster client did not shut down: " + ex);
			}
			catch (InterruptedException ex) {
				Thread.currentThread().interrupt();
			}
		}
	}

	@ParameterizedTest(name = "replicas-ack {0}")
	@ValueSource(ints = { 0, 1 })
	@SuppressWarnings("deprecation") // enableAllAdaptiveRefreshTriggers: what Spring
										// Boot's
										// refresh.adaptive sets
	void theShardsThatAreUpShouldKeepServingWhileOneFailsOver(int replicasAck) throws Exception {
		try (ClusterWithReplicas cluster = new ClusterWithReplicas(this.dir)) {
			String name = TestRedis.uniqueName("cluster-failover");
			List<RedisQueue<String>> queues = new ArrayList<>();
			for (int i = 0; i < 2; i++) {
				RedisClusterClient client = RedisClusterClient.create(cluster.seeds(Duration.ofSeconds(2)));
				// What a user of Lettuce on a cluster with failover configures (Spring
				// Boot: spring.data.redis.lettuce.cluster.refresh.*).
				client.setOptions(ClusterClientOptions.builder()
					.topologyRefreshOptions(ClusterTopologyRefreshOptions.builder()
						.enablePeriodicRefresh(Duration.ofSeconds(1))
						.enableAllAdaptiveRefreshTriggers()
						.build())
					.build());
				this.clients.add(client);
				queues.add(RedisQueue.builder(RedisQueueConnection.of(client), name)
					.holder("app-" + i)
					.shards(SHARDS)
					.leaseDuration(Duration.ofSeconds(5))
					.replicasAck(replicasAck)
					.replicasAckTimeout(Duration.ofMillis(500))
					.build(ItemCodec.strings()));
			}
			try (Traffic traffic = new Traffic(queues, 4, Duration.ofMillis(10), SHARDS,
					ClusterFailoverTest::itemOfShard)) {
				traffic.awaitResumed(System.nanoTime(), Duration.ofSeconds(30));
				for (int failed = 0; failed < 2; failed++) {
					Thread.sleep(1000);
					long killed = System.nanoTime();
					cluster.master(failed).kill();
					int shard = failed;
					if (replicasAck > 0) {
						// The promoted replica has no replica of its own until the old
						// master
						// is back: that shard's writes are refused until then.
						cluster.awaitPromoted(failed, Duration.ofSeconds(30));
						cluster.master(failed).start();
						cluster.awaitOldMasterInSync(failed, Duration.ofSeconds(30));
					}
					await().atMost(Duration.ofSeconds(60))
						.pollInterval(Duration.ofMillis(50))
						.until(() -> traffic.instances()
							.stream()
							.allMatch((instance) -> instance.firstDoneAfter(killed, (item) -> shardOf(item) == shard)
								.isPresent()));
					Duration resumed = traffic.instances()
						.stream()
						.map((instance) -> instance.firstDoneAfter(killed, (item) -> shardOf(item) == shard).get())
						.max(Duration::compareTo)
						.get();
					Duration longestPause = longestPause(traffic, killed, killed + resumed.toNanos(), shard);
					System.out.println("Cluster master of shard " + shard + " killed: its items done again after "
							+ resumed.toMillis() + " ms on every instance; the other shards' longest pause between "
							+ "dones meanwhile " + longestPause.toMillis() + " ms");
					assertThat(longestPause)
						.as("the longest pause of the other shards while shard %d failed over", shard)
						.isLessThan(LONGEST_PAUSE_OF_THE_OTHER_SHARDS);
					cluster.awaitPromoted(failed, Duration.ofSeconds(30));
				}
				traffic.stopProducing();
				await().atMost(Duration.ofSeconds(30))
					.pollInterval(Duration.ofMillis(100))
					.until(() -> queues.get(0).len() == 0 && queues.get(0).inFlight().isEmpty());
				Ledger ledger = Ledger.of(traffic);
				System.out.println("Cluster, two masters killed (replicas-ack " + replicasAck + "): " + ledger);
				ledger.assertTokensNeverRepeated();
				assertThat(queues.get(0).stats().parked()).as("items parked").isZero();
				if (replicasAck > 0) {
					ledger.assertNothingAcknowledgedLost();
				}
				for (RedisQueue<String> queue : queues) {
					assertThat(queue.stalledFor()).isEmpty();
				}
			}
			queues.forEach(RedisQueue::shutDown);
		}
	}

	/**
	 * The longest time, between {@code from} and {@code to}, in which no item of a shard
	 * other than {@code failed} was done on any instance.
	 */
	private static Duration longestPause(Traffic traffic, long from, long to, int failed) {
		List<Long> times = traffic.instances()
			.stream()
			.flatMap((instance) -> instance.dones().stream())
			.filter((done) -> shardOf(done.item()) != failed && done.nanos() - from > 0 && done.nanos() - to < 0)
			.map(Traffic.Done::nanos)
			.sorted()
			.toList();
		long longest = 0;
		long previous = from;
		for (long time : times) {
			longest = Math.max(longest, time - previous);
			previous = time;
		}
		return Duration.ofNanos(Math.max(longest, to - previous));
	}

	/** The producer's n-th item, one of its own shard's. */
	private static String itemOfShard(int instance, int producer, long n) {
		for (int attempt = 0;; attempt++) {
			String item = "i" + instance + "-p" + producer + "-" + n + "." + attempt;
			if (shardOf(item) == producer) {
				return item;
			}
		}
	}

	/**
	 * The shard of an item: the CRC-32 of its encoded form modulo the shards (as in
	 * Shards).
	 */
	private static int shardOf(String item) {
		CRC32 crc = new CRC32();
		crc.update(item.getBytes(StandardCharsets.UTF_8));
		return (int) (crc.getValue() % SHARDS);
	}

}
