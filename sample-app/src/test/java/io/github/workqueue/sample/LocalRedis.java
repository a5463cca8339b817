package io.github.workqueue.sample;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

import redis.embedded.RedisServer;

/**
 * Starts the {@code redis-server} binary the build uses for its tests, on port 6379 (or
 * the first argument), in the foreground, for trying the {@code redis} profile without
 * installing Redis: {@code ./mvnw -q -pl sample-app exec:java -Dexec.classpathScope=test
 * -Dexec.mainClass=io.github.workqueue.sample.LocalRedis}. Stop it with Ctrl-C.
 */
public final class LocalRedis {

	private LocalRedis() {
	}

	public static void main(String[] args) throws InterruptedException, IOException {
		int port = (args.length > 0) ? Integer.parseInt(args[0]) : 6379;
		Path data = Files.createDirectories(Path.of("target", "local-redis").toAbsolutePath());
		RedisServer server = RedisServer.builder()
			.port(port)
			.setting("bind 127.0.0.1")
			.setting("dir " + data)
			.setting("appendonly yes")
			.setting("appendfsync everysec")
			.build();
		server.start();
		Runtime.getRuntime().addShutdownHook(new Thread(server::stop));
		System.out.println("Redis is listening on 127.0.0.1:" + port + ", append-only file under " + data);
		Thread.currentThread().join();
	}

}
