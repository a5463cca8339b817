package io.github.workqueue.benchmarks;

import java.io.IOException;

import io.lettuce.core.RedisClient;
import io.lettuce.core.api.sync.RedisCommands;
import org.jspecify.annotations.Nullable;
import redis.embedded.RedisServer;

/**
 * The Redis a measurement runs against: the one at {@code WORKQUEUE_BENCH_REDIS_URL}, or
 * else the build's embedded {@code redis-server}, started for the run on a free loopback
 * port and stopped by {@link #close()}. Which one matters to every CPU figure: the
 * embedded binary is linked against musl and uses its allocator, where an installed Redis
 * uses jemalloc (docs/benchmarks.md).
 */
final class MeasuredRedis implements AutoCloseable {

	private final @Nullable RedisServer server;

	private final String uri;

	private MeasuredRedis(@Nullable RedisServer server, String uri) {
		this.server = server;
		this.uri = uri;
	}

	static MeasuredRedis start() throws IOException {
		String external = System.getenv("WORKQUEUE_BENCH_REDIS_URL");
		if (external != null && !external.isBlank()) {
			return new MeasuredRedis(null, external);
		}
		int port = RedisMeasurement.freePort();
		RedisServer server = RedisServer.builder().port(port).setting("bind 127.0.0.1").setting("save \"\"").build();
		server.start();
		return new MeasuredRedis(server, "redis://127.0.0.1:" + port);
	}

	String uri() {
		return this.uri;
	}

	/**
	 * Names the server: its version and the allocator it was built with.
	 * @return a line such as {@code "redis-server 7.0.15, allocator libc"}
	 */
	String describe() {
		RedisClient client = RedisClient.create(this.uri);
		try {
			RedisCommands<String, String> commands = client.connect().sync();
			return "redis-server " + field(commands.info("server"), "redis_version") + ", allocator "
					+ field(commands.info("memory"), "mem_allocator");
		}
		finally {
			client.shutdown();
		}
	}

	private static String field(String info, String name) {
		for (String line : info.split("\\r?\\n")) {
			if (line.startsWith(name + ":")) {
				return line.substring(name.length() + 1).trim();
			}
		}
		return "unknown";
	}

	@Override
	public void close() {
		if (this.server != null) {
			this.server.stop();
		}
	}

}
