package io.github.workqueue.benchmarks;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.LockSupport;

import io.lettuce.core.RedisClient;
import io.lettuce.core.api.sync.RedisCommands;

/**
 * Issue 39's same-run ratio: the {@link MinimalLuaQueue} yardstick against this project's
 * queue, one after the other on the same Redis. The yardstick's run: four producers each
 * adding {@code -Ditems} / 4 distinct items in calls of a batch each, while one consumer
 * ends the leases it took and takes a batch more in each call (no-op work), at 16 and 64
 * items per call; every item checked to be taken exactly once. Then this project's FIFO
 * enqueue-and-process (four producers adding one item per call, or {@code -DaddAll} items
 * per {@code addAll} call as the yardstick's producers do, four workers blocking in
 * {@code get}, dones without waiting as the container ends them), at the builder's
 * prefetch and {@code -Dprefetch}, after {@code -Dwarmup} items not reported. Each line:
 * items per second, redis-server CPU per item, commands per item and this JVM's CPU per
 * item. Run: {@code java -cp
 * workqueue-benchmarks/target/benchmarks.jar
 * io.github.workqueue.benchmarks.MinimalQueueMeasurement}.
 */
public final class MinimalQueueMeasurement {

	private static final int ITEMS = Integer.getInteger("items", 100_000);

	private static final int PRODUCERS = 4;

	private MinimalQueueMeasurement() {
	}

	public static void main(String[] args) throws Exception {
		try (MeasuredRedis redis = MeasuredRedis.start()) {
			String uri = redis.uri();
			System.out.println(redis.describe());
			System.out.printf("%-40s %12s %16s %15s %14s%n", "enqueue-and-process", "items/s", "redis us/item",
					"commands/item", "JVM us/item");
			for (int batch : new int[] { 16, 64 }) {
				minimal(uri, batch);
			}
			RedisPriorityMeasurement.warmUp(uri);
			RedisPriorityMeasurement.header("this project");
			RedisPriorityMeasurement.report(uri,
					RedisPriorityMeasurement.labelled("fifo, prefetch " + RedisMeasurement.PREFETCH), false,
					(i) -> null, ITEMS, 0);
		}
	}

	private static void minimal(String uri, int batch) throws InterruptedException {
		RedisClient client = RedisClient.create(uri);
		RedisCommands<String, String> stats = client.connect().sync();
		MinimalLuaQueue.load(stats);
		String name = "bench-" + System.nanoTime();
		CommandStats commandsBefore = CommandStats.read(stats);
		double cpuBefore = RedisMeasurement.cpuSeconds(stats.info("cpu"));
		long jvmBefore = RedisPriorityMeasurement.jvmCpuNanos();
		long start = System.nanoTime();
		List<Thread> producers = new ArrayList<>();
		for (int p = 0; p < PRODUCERS; p++) {
			int first = p;
			producers.add(RedisMeasurement.start(() -> {
				MinimalLuaQueue queue = new MinimalLuaQueue(client.connect().sync(), name, 30_000_000);
				List<String> items = new ArrayList<>(batch);
				for (int i = first; i < ITEMS; i += PRODUCERS) {
					items.add("item-" + i);
					if (items.size() == batch || i + PRODUCERS >= ITEMS) {
						queue.add(items);
						items.clear();
					}
				}
			}));
		}
		int[] taken = new int[ITEMS];
		AtomicInteger twice = new AtomicInteger();
		MinimalLuaQueue consumer = new MinimalLuaQueue(client.connect().sync(), name, 30_000_000);
		List<MinimalLuaQueue.Lease> held = List.of();
		int processed = 0;
		while (processed < ITEMS) {
			MinimalLuaQueue.Cycle cycle = consumer.cycle(held, batch);
			held = cycle.leases();
			for (MinimalLuaQueue.Lease lease : held) {
				int number = Integer.parseInt(lease.item().substring(5));
				if (taken[number]++ > 0) {
					twice.incrementAndGet();
				}
			}
			processed += held.size();
			if (held.isEmpty()) {
				LockSupport.parkNanos(100_000);
			}
		}
		consumer.cycle(held, 0);
		double seconds = (System.nanoTime() - start) / 1e9;
		for (Thread producer : producers) {
			producer.join();
		}
		long jvmNanos = RedisPriorityMeasurement.jvmCpuNanos() - jvmBefore;
		double cpuAfter = RedisMeasurement.cpuSeconds(stats.info("cpu"));
		CommandStats ran = CommandStats.read(stats).since(commandsBefore);
		if (twice.get() > 0 || consumer.len() != 0) {
			throw new IllegalStateException(twice.get() + " items taken twice, " + consumer.len() + " left");
		}
		System.out.printf("%-40s %,12.0f %16.1f %15.2f %14.1f%n", "minimal Lua queue, " + batch + " per call",
				ITEMS / seconds, (cpuAfter - cpuBefore) * 1e6 / ITEMS, ran.commands().calls() / (double) ITEMS,
				jvmNanos / 1e3 / ITEMS);
		client.shutdown();
	}

}
