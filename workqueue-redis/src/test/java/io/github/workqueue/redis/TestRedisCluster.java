package io.github.workqueue.redis;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.IntStream;

import io.lettuce.core.RedisClient;
import io.lettuce.core.api.StatefulRedisConnection;
import io.lettuce.core.api.sync.RedisCommands;
import io.lettuce.core.cluster.RedisClusterClient;
import redis.embedded.RedisServer;

import static org.awaitility.Awaitility.await;

/**
 * A Redis Cluster of three masters made from the embedded {@code redis-server}: each node
 * gets a third of the 16384 slots, they meet, and the cluster is used once every node
 * reports {@code cluster_state:ok}. Started once per test JVM, stopped when it exits.
 */
public final class TestRedisCluster {

	private static RedisClusterClient client;

	/** A node's address, from which a client learns the cluster. */
	private static String uri;

	private TestRedisCluster() {
	}

	/**
	 * The cluster's client, shared by the tests of this JVM.
	 * @return the client
	 */
	public static synchronized RedisClusterClient client() {
		if (client == null) {
			uri = start();
			client = RedisClusterClient.create(uri);
			Runtime.getRuntime().addShutdownHook(new Thread(client::shutdown));
		}
		return client;
	}

	/**
	 * The address of one of the cluster's nodes, for a client in another JVM.
	 * @return the URI
	 */
	public static synchronized String uri() {
		client();
		return uri;
	}

	private static String start() {
		Path dir;
		try {
			dir = Files.createTempDirectory("workqueue-cluster");
		}
		catch (IOException ex) {
			throw new UncheckedIOException(ex);
		}
		List<Integer> ports = new ArrayList<>();
		List<RedisServer> servers = new ArrayList<>();
		for (int i = 0; i < 3; i++) {
			int port = TestRedis.freeClusterPort();
			ports.add(port);
			servers.add(TestRedis.startServer(port, "cluster-enabled yes", "cluster-node-timeout 5000",
					"cluster-config-file nodes-" + port + ".conf", "dir " + dir));
		}
		Runtime.getRuntime().addShutdownHook(new Thread(() -> servers.forEach(RedisServer::stop)));
		List<StatefulRedisConnection<String, String>> connections = new ArrayList<>();
		List<RedisClient> clients = new ArrayList<>();
		for (int i = 0; i < 3; i++) {
			RedisClient node = RedisClient.create("redis://127.0.0.1:" + ports.get(i));
			clients.add(node);
			StatefulRedisConnection<String, String> connection = node.connect();
			connections.add(connection);
			int from = i * 16384 / 3;
			int to = (i + 1) * 16384 / 3;
			connection.sync().clusterAddSlots(IntStream.range(from, to).toArray());
		}
		for (int i = 1; i < 3; i++) {
			connections.get(0).sync().clusterMeet("127.0.0.1", ports.get(i));
		}
		await().atMost(Duration.ofSeconds(30))
			.until(() -> connections.stream()
				.map(StatefulRedisConnection::sync)
				.map(RedisCommands::clusterInfo)
				.allMatch((info) -> info.contains("cluster_state:ok") && info.contains("cluster_known_nodes:3")));
		connections.forEach(StatefulRedisConnection::close);
		clients.forEach(RedisClient::shutdown);
		return "redis://127.0.0.1:" + ports.get(0);
	}

}
