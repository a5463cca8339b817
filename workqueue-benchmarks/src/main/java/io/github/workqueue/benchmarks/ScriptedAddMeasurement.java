package io.github.workqueue.benchmarks;

import java.time.Duration;

import io.github.workqueue.redis.ItemCodec;
import io.github.workqueue.redis.RedisQueue;
import io.github.workqueue.redis.RedisQueueConnection;
import io.lettuce.core.RedisClient;
import io.lettuce.core.api.sync.RedisCommands;

/**
 * The adds that run a script of their own rather than riding in a batch, measured by
 * {@code addAfter}: one thread adds distinct keys an hour ahead, each add waiting for its
 * answer, after 2,000 not measured. One line: adds per second, redis-server CPU per add
 * ({@code INFO cpu}), commands per add ({@code INFO commandstats}, the script's own
 * included) and this JVM's CPU per add. Against {@code WORKQUEUE_BENCH_REDIS_URL}, or the
 * embedded server ({@link MeasuredRedis}). Run with
 * {@code java -Ditems=20000 -cp benchmarks.jar io.github.workqueue.benchmarks.ScriptedAddMeasurement}.
 */
public final class ScriptedAddMeasurement {

	private static final int ITEMS = Integer.getInteger("items", 20_000);

	private ScriptedAddMeasurement() {
	}

	public static void main(String[] args) throws Exception {
		try (MeasuredRedis redis = MeasuredRedis.start()) {
			System.out.println(redis.describe());
			RedisClient client = RedisClient.create(redis.uri());
			RedisQueueConnection connection = RedisQueueConnection.of(client);
			RedisQueue<String> queue = RedisQueue.builder(connection, "scripted-add-" + System.nanoTime())
				.build(ItemCodec.strings());
			try {
				for (int i = 0; i < 2_000; i++) {
					queue.addAfter("warm-up-" + i, Duration.ofHours(1));
				}
				RedisCommands<String, String> stats = client.connect().sync();
				CommandStats commands = CommandStats.read(stats);
				double redisCpu = RedisMeasurement.cpuSeconds(stats.info("cpu"));
				long jvmCpu = RedisPriorityMeasurement.jvmCpuNanos();
				long start = System.nanoTime();
				for (int i = 0; i < ITEMS; i++) {
					queue.addAfter("item-" + i, Duration.ofHours(1));
				}
				double seconds = (System.nanoTime() - start) / 1e9;
				double redisMicros = (RedisMeasurement.cpuSeconds(stats.info("cpu")) - redisCpu) * 1e6 / ITEMS;
				double jvmMicros = (RedisPriorityMeasurement.jvmCpuNanos() - jvmCpu) / 1e3 / ITEMS;
				long calls = CommandStats.read(stats).since(commands).commands().calls();
				System.out.printf(
						"addAfter, 1 thread: %,.0f adds/s, redis %.1f µs/add, %.2f commands/add, JVM %.1f µs/add%n",
						ITEMS / seconds, redisMicros, calls / (double) ITEMS, jvmMicros);
			}
			finally {
				queue.shutDown();
				connection.close();
				client.shutdown();
			}
		}
	}

}
