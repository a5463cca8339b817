package io.github.workqueue.benchmarks;

import java.time.Duration;
import java.util.concurrent.Callable;
import java.util.function.IntConsumer;

import io.lettuce.core.RedisClient;
import io.lettuce.core.api.sync.RedisCommands;

import io.github.workqueue.redis.ItemCodec;
import io.github.workqueue.redis.RedisQueue;
import io.github.workqueue.redis.RedisQueueConnection;

/**
 * Where redis-server's time goes, per queue operation: one client thread runs each
 * operation alone on {@link #ITEMS} distinct items (all adds, then all gets, then all
 * dones), and {@code INFO cpu} and {@code INFO commandstats} are read around each phase.
 * Prints, per operation, redis-server's CPU per call (user plus system, so the network
 * round trip is included) and the Redis commands each call ran, by command; a
 * {@code PING} phase first gives the cost of a round trip that does no work. Then the
 * same items again from {@value #THREADS} threads at once (adds, then gets each followed
 * by its done), as an application's producers and workers call them, so that their
 * requests share round trips: the cost per item that bounds a Redis's throughput. Run:
 * {@code java -cp workqueue-benchmarks/target/benchmarks.jar
 * io.github.workqueue.benchmarks.RedisCostBreakdown} (an embedded redis-server, or the
 * one at {@code WORKQUEUE_BENCH_REDIS_URL}).
 */
public final class RedisCostBreakdown {

	private static final int ITEMS = 40_000;

	private static final int THREADS = 4;

	private RedisCostBreakdown() {
	}

	public static void main(String[] args) throws Exception {
		try (MeasuredRedis redis = MeasuredRedis.start()) {
			System.out.println(redis.describe());
			measure(redis.uri());
		}
	}

	private static void measure(String uri) throws Exception {
		RedisClient client = RedisClient.create(uri);
		RedisClient statsClient = RedisClient.create(uri);
		try {
			RedisCommands<String, String> stats = statsClient.connect().sync();
			RedisQueue<String> queue = RedisQueue
				.builder(RedisQueueConnection.of(client), "breakdown-" + System.nanoTime())
				.build(ItemCodec.strings());
			// Warm up: load the scripts and let the JIT compile the client's paths.
			for (int i = 0; i < 2_000; i++) {
				queue.add("warm-" + i);
				queue.get(Duration.ZERO);
				queue.done("warm-" + i);
			}
			System.out.printf("%-14s %12s %12s %10s  %s%n", "op", "redis us/op", "scripts us", "cmds/op",
					"commands per op");
			// The floor: a round trip that does no work.
			RedisCommands<String, String> pinger = client.connect().sync();
			phase("ping", stats, () -> {
				for (int i = 0; i < ITEMS; i++) {
					pinger.ping();
				}
				return null;
			});
			phase("add", stats, () -> {
				for (int i = 0; i < ITEMS; i++) {
					queue.add("item-" + i);
				}
				return null;
			});
			phase("get", stats, () -> {
				for (int i = 0; i < ITEMS; i++) {
					queue.get(Duration.ZERO);
				}
				return null;
			});
			phase("done", stats, () -> {
				for (int i = 0; i < ITEMS; i++) {
					queue.done("item-" + i);
				}
				return null;
			});
			// The same operations as an application runs them: threads at once, so that
			// their requests share round trips.
			phase("add x" + THREADS, stats, () -> inThreads((thread) -> {
				for (int i = thread; i < ITEMS; i += THREADS) {
					queue.add("batched-" + i);
				}
			}));
			phase("get+done x" + THREADS, stats, () -> inThreads((thread) -> {
				for (int i = thread; i < ITEMS; i += THREADS) {
					try {
						queue.done(queue.get().orElseThrow());
					}
					catch (InterruptedException ex) {
						throw new IllegalStateException(ex);
					}
				}
			}));
			queue.shutDown();
		}
		finally {
			client.shutdown();
			statsClient.shutdown();
		}
	}

	private static void phase(String name, RedisCommands<String, String> stats, Callable<Void> work) throws Exception {
		double cpuBefore = RedisMeasurement.cpuSeconds(stats.info("cpu"));
		CommandStats before = CommandStats.read(stats);
		work.call();
		double cpuAfter = RedisMeasurement.cpuSeconds(stats.info("cpu"));
		CommandStats ran = CommandStats.read(stats).since(before);
		double inScripts = ran.of(CommandStats.SCRIPTS).micros() / (double) ITEMS;
		long total = ran.byCommand().values().stream().mapToLong(CommandStats.Counts::calls).sum();
		System.out.printf("%-14s %12.1f %12.1f %10.2f  %s%n", name, (cpuAfter - cpuBefore) * 1e6 / ITEMS, inScripts,
				total / (double) ITEMS, ran.perUnit(ITEMS));
	}

	private static Void inThreads(IntConsumer work) throws InterruptedException {
		Thread[] threads = new Thread[THREADS];
		for (int t = 0; t < THREADS; t++) {
			int thread = t;
			threads[t] = new Thread(() -> work.accept(thread));
			threads[t].start();
		}
		for (Thread thread : threads) {
			thread.join();
		}
		return null;
	}

}
