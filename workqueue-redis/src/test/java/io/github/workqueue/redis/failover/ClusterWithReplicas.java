package io.github.workqueue.redis.failover;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.IntStream;

import io.lettuce.core.RedisClient;
import io.lettuce.core.RedisURI;
import io.lettuce.core.api.StatefulRedisConnection;

import io.github.workqueue.redis.TestRedis;

import static org.awaitility.Awaitility.await;

/**
 * A Redis Cluster of three masters, each with a replica, as processes of the embedded
 * binary that a test can kill: master i holds the i-th third of the slots, so shard i of
 * a queue with three shards lives on master i (see {@code Shards}). A master that is
 * killed is replaced by its replica once the others see it down
 * ({@code cluster-node-timeout} 1 s). Not thread-safe.
 */
public final class ClusterWithReplicas implements AutoCloseable {

	private final List<RedisProcess> masters = new ArrayList<>();

	private final List<RedisProcess> replicas = new ArrayList<>();

	/**
	 * Starts the six nodes and waits until the cluster is ok with a replica per master.
	 * @param dir where the nodes keep their files
	 */
	public ClusterWithReplicas(Path dir) {
		for (int i = 0; i < 6; i++) {
			int port = TestRedis.freeClusterPort();
			RedisProcess node = RedisProcess.server(port, dir.resolve("node-" + port), "cluster-enabled yes",
					"cluster-node-timeout 1000", "cluster-config-file nodes.conf", "appendonly yes",
					"cluster-replica-validity-factor 0", "cluster-require-full-coverage no");
			((i < 3) ? this.masters : this.replicas).add(node);
		}
		List<String> masterIds = new ArrayList<>();
		for (int i = 0; i < 3; i++) {
			int from = i * 16384 / 3;
			int to = (i + 1) * 16384 / 3;
			masterIds.add(run(this.masters.get(i), (redis) -> {
				redis.sync().clusterAddSlots(IntStream.range(from, to).toArray());
				return redis.sync().clusterMyId();
			}));
		}
		for (RedisProcess node : nodes().subList(1, 6)) {
			run(this.masters.get(0), (redis) -> redis.sync().clusterMeet("127.0.0.1", node.port()));
		}
		await().atMost(Duration.ofSeconds(30))
			.until(() -> nodes().stream()
				.allMatch(
						(node) -> run(node, (redis) -> redis.sync().clusterInfo()).contains("cluster_known_nodes:6")));
		for (int i = 0; i < 3; i++) {
			String master = masterIds.get(i);
			run(this.replicas.get(i), (redis) -> redis.sync().clusterReplicate(master));
		}
		await().atMost(Duration.ofSeconds(30))
			.until(() -> this.masters.stream()
				.allMatch(
						// A replica counts once in sync: before, it has nothing to take
						// over.
						(node) -> run(node, (redis) -> redis.sync().info("replication")).contains("state=online")
								&& run(node, (redis) -> redis.sync().clusterInfo()).contains("cluster_state:ok")));
	}

	private List<RedisProcess> nodes() {
		List<RedisProcess> all = new ArrayList<>(this.masters);
		all.addAll(this.replicas);
		return all;
	}

	/** The URIs of the masters, as the client's seeds. */
	public List<RedisURI> seeds(Duration timeout) {
		return this.masters.stream()
			.map((node) -> RedisURI.builder().withHost("127.0.0.1").withPort(node.port()).withTimeout(timeout).build())
			.toList();
	}

	public RedisProcess master(int i) {
		return this.masters.get(i);
	}

	/** The replica of master i. */
	public RedisProcess replica(int i) {
		return this.replicas.get(i);
	}

	/** Which master serves a slot while none failed over: its index. */
	public static int masterOf(int slot) {
		int master = 0;
		while (slot >= (master + 1) * 16384 / 3) {
			master++;
		}
		return master;
	}

	/** Waits until master i's replica has taken over its slots. */
	public void awaitPromoted(int i, Duration bound) {
		await().atMost(bound)
			.until(() -> run(this.replicas.get(i), (redis) -> redis.sync().info("replication"))
				.contains("role:master"));
	}

	/**
	 * Waits until master i's replica, promoted, has master i back (restarted) as its
	 * replica, in sync.
	 */
	public void awaitOldMasterInSync(int i, Duration bound) {
		await().atMost(bound)
			.ignoreExceptions()
			.until(() -> run(this.replicas.get(i), (redis) -> redis.sync().info("replication"))
				.contains("state=online"));
	}

	private static <R> R run(RedisProcess node,
			java.util.function.Function<StatefulRedisConnection<String, String>, R> call) {
		RedisClient client = RedisClient.create(RedisURI.create("127.0.0.1", node.port()));
		try (StatefulRedisConnection<String, String> connection = client.connect()) {
			return call.apply(connection);
		}
		finally {
			client.shutdown(Duration.ZERO, Duration.ofSeconds(1));
		}
	}

	@Override
	public void close() {
		nodes().forEach(RedisProcess::close);
	}

}
