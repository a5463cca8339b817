package io.github.workqueue.benchmarks;

import redis.embedded.RedisServer;

/**
 * The embedded {@code redis-server} of the build, on the port given (default 6390), until
 * the process is stopped: the one Redis that {@code run-redis-vs-rqueue.sh} measures both
 * queues on.
 */
public final class BenchmarkRedisServer {

	private BenchmarkRedisServer() {
	}

	public static void main(String[] args) throws InterruptedException {
		int port = (args.length > 0) ? Integer.parseInt(args[0]) : 6390;
		RedisServer server = RedisServer.builder().port(port).setting("bind 127.0.0.1").setting("save \"\"").build();
		server.start();
		Runtime.getRuntime().addShutdownHook(new Thread(server::stop));
		System.out.println("redis ready on 127.0.0.1:" + port);
		Thread.currentThread().join();
	}

}
