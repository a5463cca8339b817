package io.github.workqueue.redis;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.ServerSocket;
import java.util.UUID;

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

	private static String startEmbedded() {
		int port = freePort();
		RedisServer server = startServer(port);
		Runtime.getRuntime().addShutdownHook(new Thread(server::stop));
		return "redis://127.0.0.1:" + port;
	}

}
