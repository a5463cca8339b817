package io.github.workqueue.redis.process;

import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;

import io.github.workqueue.core.AddOptions;
import io.github.workqueue.redis.ItemCodec;
import io.github.workqueue.redis.RedisQueue;
import io.github.workqueue.redis.RedisQueueBuilder;
import io.github.workqueue.redis.RedisQueueConnection;
import io.github.workqueue.redis.RedisQueueStats;
import io.github.workqueue.redis.TestRedis;
import io.github.workqueue.redis.TestRedisCluster;
import io.lettuce.core.cluster.api.sync.RedisAdvancedClusterCommands;
import io.lettuce.core.cluster.api.sync.RedisClusterCommands;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Three instances of one queue in three JVMs on one Redis (or on a Redis Cluster of three
 * masters, the queue in three shards, one per master), while this JVM adds items (each
 * key twice, the second add often while the first is processing) and kills an instance
 * with SIGKILL mid-processing, then starts a new one, several times. Checked: no item was
 * ever held by two live leases at once; every add was followed by a processing that read
 * it (the last version seen of each key is its last version added); nothing was lost or
 * parked; the redeliveries equal the items the killed instances held when they died, plus
 * the leases that live instances lost (on a busy machine, starved of CPU for a lease),
 * each of which shows as one rejected done. Twice: with plain adds, and with each add at
 * one of three priorities (a key's second add raising it one time in three) on queues
 * with fairness over seven tenants, so that the kills hit items taken from the priority
 * trees and their expired leases put them back there; and on the cluster, the producer
 * adding sixteen keys per {@code addAll}, so that every shard's master serves the three
 * instances and the kills hit leases on every shard.
 */
class ProcessKillTest {

	/**
	 * Keys of the plain run: enough work that all three kills (the last about 12 s in)
	 * land while items are processing, with room to spare (the run takes about a minute
	 * on a two-core machine, the instances' starts included); more only lengthens the
	 * tail after the kills.
	 */
	private static final int KEYS = Integer.getInteger("workqueue.processKill.keys", 30_000);

	/**
	 * Keys of the run with priorities and fairness, whose adds and takes cost Redis more.
	 */
	private static final int FAIR_KEYS = Integer.getInteger("workqueue.processKill.fairKeys", 15_000);

	/** Keys of the run on the cluster, where a machine runs three servers. */
	private static final int CLUSTER_KEYS = Integer.getInteger("workqueue.processKill.clusterKeys", 12_000);

	private static final AddOptions[] PRIORITIES = { AddOptions.priority(-1), AddOptions.priority(0),
			AddOptions.priority(1) };

	private static final int KILLS = 3;

	private static final Duration LEASE = Duration.ofSeconds(5);

	private final String name = TestRedis.uniqueName("kill");

	private final List<WorkerInstance> instances = new ArrayList<>();

	/** Where the queue lives. */
	enum Setup {

		/** One Redis, plain adds. */
		FIFO,

		/** One Redis, three priorities and fairness over seven tenants. */
		PRIORITIES_AND_FAIRNESS,

		/**
		 * A Redis Cluster of three masters, a queue of three shards (one per master), the
		 * producer adding with {@code addAll}.
		 */
		CLUSTER_OF_THREE_SHARDS

	}

	private static final int SHARDS = 3;

	private RedisClusterCommands<String, String> redis;

	@AfterEach
	void killAll() {
		this.instances.forEach((instance) -> instance.process().destroyForcibly());
	}

	@ParameterizedTest
	@EnumSource(Setup.class)
	void nothingShouldBeLostOrHeldTwiceWhileInstancesAreKilled(Setup setup) throws Exception {
		boolean fair = setup == Setup.PRIORITIES_AND_FAIRNESS;
		boolean cluster = setup == Setup.CLUSTER_OF_THREE_SHARDS;
		int keys = switch (setup) {
			case FIFO -> KEYS;
			case PRIORITIES_AND_FAIRNESS -> FAIR_KEYS;
			case CLUSTER_OF_THREE_SHARDS -> CLUSTER_KEYS;
		};
		this.redis = cluster ? TestRedisCluster.client().connect().sync() : TestRedis.client().connect().sync();
		RedisQueueBuilder builder = cluster
				? RedisQueue.builder(RedisQueueConnection.of(TestRedisCluster.client()), this.name).shards(SHARDS)
				: RedisQueue.builder(RedisQueueConnection.of(TestRedis.client()), this.name);
		builder.holder("producer");
		RedisQueue<String> producer = (fair ? builder.fairness(WorkerProcess.TENANT) : builder)
			.build(ItemCodec.strings());
		for (int i = 0; i < 3; i++) {
			start(setup);
		}
		ExecutorService adders = Executors.newFixedThreadPool(4);
		List<Future<?>> adding = new ArrayList<>();
		for (int round = 0; round < 2; round++) {
			for (int part = 0; part < 4; part++) {
				int first = part;
				adding.add(adders.submit(() -> {
					List<String> gathered = new ArrayList<>();
					for (int key = first; key < keys; key += 4) {
						String item = fair ? "t" + (key % 7) + "/k" + key : "k" + key;
						this.redis.hincrby(this.name + ":versions", item, 1);
						if (cluster) {
							gathered.add(item);
							if (gathered.size() == 16 || key + 4 >= keys) {
								producer.addAll(gathered);
								gathered.clear();
							}
						}
						else if (fair) {
							producer.add(item, PRIORITIES[ThreadLocalRandom.current().nextInt(3)]);
						}
						else {
							producer.add(item);
						}
					}
				}));
			}
		}
		long expectedRedeliveries = 0;
		for (int kill = 0; kill < KILLS; kill++) {
			Thread.sleep(2000 + ThreadLocalRandom.current().nextInt(1000));
			expectedRedeliveries += killOne(cluster);
			start(setup);
		}
		for (Future<?> add : adding) {
			add.get(5, TimeUnit.MINUTES);
		}
		adders.shutdown();
		await().atMost(Duration.ofMinutes(5)).pollInterval(Duration.ofMillis(500)).until(() -> {
			RedisQueueStats stats = producer.stats();
			return stats.queued() == 0 && stats.waiting() == 0 && stats.inFlight() == 0;
		});
		Map<String, String> versions = this.redis.hgetall(this.name + ":versions");
		Map<String, String> seen = this.redis.hgetall(this.name + ":seen");
		Map<String, String> unseen = new HashMap<>();
		versions.forEach((key, version) -> {
			if (!version.equals(seen.get(key))) {
				unseen.put(key, version + " added, " + seen.get(key) + " seen");
			}
		});
		assertThat(this.redis.lrange(this.name + ":violations", 0, 20)).as("items held by two live leases").isEmpty();
		assertThat(versions).hasSize(keys);
		assertThat(unseen).as("adds not followed by a processing that read them").isEmpty();
		RedisQueueStats stats = producer.stats();
		System.out.println("ProcessKillTest, " + setup + ": " + keys + " keys, " + KILLS + " kills, "
				+ expectedRedeliveries + " items in flight at the kills, " + stats);
		assertThat(expectedRedeliveries).as("the kills hit instances mid-processing").isPositive();
		assertThat(stats.parked()).isZero();
		// A live instance starved of CPU (a busy machine) may lose a lease too: its item
		// is
		// delivered again and its late done is rejected, once per such lease.
		assertThat(stats.redeliveries())
			.as("redeliveries = items in flight in the killed instances + leases lost by live ones (%s)",
					stats.rejectedDones())
			.isEqualTo(expectedRedeliveries + stats.rejectedDones());
		producer.shutDown();
	}

	/**
	 * Kills the oldest instance with SIGKILL and returns how many leases it held when it
	 * died; its claims in {@code active} are cleared, since a dead process holds nothing
	 * live.
	 */
	private long killOne(boolean cluster) throws InterruptedException {
		WorkerInstance victim = this.instances.remove(0);
		victim.kill();
		List<String> leases = new ArrayList<>();
		List<String> inFlightKeys = cluster ? ((RedisAdvancedClusterCommands<String, String>) this.redis)
			.keys("{workqueue:" + this.name + ":*}:inflight") : List.of("{workqueue:" + this.name + "}:inflight");
		for (String key : inFlightKeys) {
			leases.addAll(this.redis.hvals(key));
		}
		long held = 0;
		for (String lease : leases) {
			if (lease.split(" ")[1].equals(victim.holder())) {
				held++;
			}
		}
		Map<String, String> active = this.redis.hgetall(this.name + ":active");
		for (Map.Entry<String, String> claim : active.entrySet()) {
			for (String lease : leases) {
				String[] parts = lease.split(" ");
				if (parts[0].equals(claim.getValue()) && parts[1].equals(victim.holder())) {
					this.redis.hdel(this.name + ":active", claim.getKey());
				}
			}
		}
		return held;
	}

	private void start(Setup setup) throws IOException {
		String holder = "instance-" + this.instances.size() + "-" + System.nanoTime();
		this.instances.add((setup == Setup.CLUSTER_OF_THREE_SHARDS)
				? WorkerInstance.startOnCluster(this.name, holder, LEASE, 4, SHARDS)
				: WorkerInstance.start(this.name, holder, LEASE, 4, setup == Setup.PRIORITIES_AND_FAIRNESS));
	}

}
