package io.github.workqueue.redis;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.util.UUID;
import java.util.concurrent.ThreadLocalRandom;

import io.lettuce.core.RedisClient;
import redis.embedded.RedisServer;
import redis.embedded.exceptions.EmbeddedRedisException;

/**
 * The Redis the tests run against: the one at {@code WORKQUEUE_TEST_REDIS_URL} when that
 * is set, otherwise a real {@code redis-server} (the embedded binary) started once per
 * test JVM on a free port and stopped when the JVM exits. Tests keep apart by using queue
 * names of their own.
 */
public final class TestRedis {

	/** Where cluster nodes' ports are drawn from ({@link #freeClusterPort}). */
	private static final int CLUSTER_PORTS_FROM = 12_000;

	private static final int CLUSTER_PORTS_TO = 22_000;

	private static String uri;

	private static RedisClient client;

	private TestRedis() {
	}

	/**
	 * Returns the URI of the test Redis, starting it if needed.
	 * @return the URI
	 */
	public static synchronized String uri() {
		if (uri == null) {
			String external = System.getenv("WORKQUEUE_TEST_REDIS_URL");
			uri = (external != null && !external.isBlank()) ? external : startEmbedded();
		}
		return uri;
	}

	/**
	 * Returns a client of the test Redis, shared by the tests of this JVM.
	 * @return the client
	 */
	public static synchronized RedisClient client() {
		if (client == null) {
			client = RedisClient.create(uri());
			Runtime.getRuntime().addShutdownHook(new Thread(client::shutdown));
		}
		return client;
	}

	/**
	 * Returns a queue name no other test uses.
	 * @param hint what the test is about
	 * @return the name
	 */
	public static String uniqueName(String hint) {
		return hint + "-" + UUID.randomUUID().toString().substring(0, 8);
	}

	/**
	 * Starts a {@code redis-server} of the embedded binary on a port. A start that fails
	 * at once (seen rarely on a loaded machine: the freshly extracted binary cannot be
	 * executed yet) is tried again, twice at most.
	 * @param port the port
	 * @param settings extra configuration lines
	 * @return the server, started
	 */
	public static RedisServer startServer(int port, String... settings) {
		for (int attempt = 1;; attempt++) {
			var builder = RedisServer.builder().port(port).setting("bind 127.0.0.1").setting("save \"\"");
			for (String setting : settings) {
				builder.setting(setting);
			}
			RedisServer server = builder.build();
			try {
				server.start();
				return server;
			}
			catch (EmbeddedRedisException ex) {
				if (attempt == 3) {
					throw ex;
				}
			}
		}
	}

	public static int freePort() {
		try (ServerSocket socket = new ServerSocket(0)) {
			return socket.getLocalPort();
		}
		catch (IOException ex) {
			throw new UncheckedIOException(ex);
		}
	}

	/**
	 * A port for a Redis Cluster node: free, and with its cluster bus port (10,000 above
	 * it) free too. Both are below the kernel's ephemeral range (32,768 and up on Linux),
	 * from which the tests' own client connections take their local ports: a node given
	 * an ephemeral port ({@link #freePort}) could find its bus port taken by one of them,
	 * and Redis refuses a cluster node above port 55,535 anyway.
	 * @return the port
	 */
	public static int freeClusterPort() {
		for (int attempt = 0; attempt < 1000; attempt++) {
			int port = ThreadLocalRandom.current().nextInt(CLUSTER_PORTS_FROM, CLUSTER_PORTS_TO);
			if (isFree(port) && isFree(port + 10_000)) {
				return port;
			}
		}
		throw new IllegalStateException("no free port between " + CLUSTER_PORTS_FROM + " and " + CLUSTER_PORTS_TO
				+ " whose cluster bus port is free too");
	}

	private static boolean isFree(int port) {
		try (ServerSocket socket = new ServerSocket()) {
			socket.setReuseAddress(false);
			socket.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), port));
			return true;
		}
		catch (IOException ex) {
			return false;
		}
	}

	private static String startEmbedded() {
		int port = freePort();
		RedisServer server = startServer(port);
		Runtime.getRuntime().addShutdownHook(new Thread(server::stop));
		return "redis://127.0.0.1:" + port;
	}

}
