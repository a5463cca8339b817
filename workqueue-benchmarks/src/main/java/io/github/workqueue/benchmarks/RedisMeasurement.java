package io.github.workqueue.benchmarks;

import java.io.IOException;
import java.net.ServerSocket;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.IntConsumer;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.locks.LockSupport;

import io.github.workqueue.core.WorkQueue;
import io.github.workqueue.redis.ItemCodec;
import io.github.workqueue.redis.RedisQueue;
import io.github.workqueue.redis.RedisQueueBuilder;
import io.github.workqueue.redis.RedisQueueConnection;
import io.lettuce.core.RedisClient;

/**
 * The Redis queue measured on one Redis (the embedded {@code redis-server}, or the one at
 * {@code WORKQUEUE_BENCH_REDIS_URL}), with the in-memory queue as the ceiling:
 * <ul>
 * <li>throughput: one producer adds distinct items while 1, 2 or 4 instances (each its
 * own client and 4 workers blocking in {@code get}) take and finish them; items per
 * second from the first add to the last {@code done};</li>
 * <li>Redis round trips per item in that run, read from {@code INFO commandstats};</li>
 * <li>redis-server's CPU time per item in that run (add, get and done, user plus system),
 * read from {@code INFO cpu}: the cost that bounds one Redis's throughput, whatever the
 * number of client cores;</li>
 * <li>hand-off latency: a worker blocked in {@code get}, one add at a time, from the call
 * of {@code add} to the return of {@code get}, p50 and p99.</li>
 * <li>a ledger per throughput run: every item added was processed exactly once, or the
 * run fails.</li>
 * </ul>
 * {@code -Dprefetch=N} lets each instance lease up to N items ahead of its workers;
 * {@code -DdoneWithoutWaiting=true} ends items as the worker container does;
 * {@code -Dworkers=N} runs N workers per instance. Run: {@code java -cp
 * workqueue-benchmarks/target/benchmarks.jar
 * io.github.workqueue.benchmarks.RedisMeasurement}.
 */
public final class RedisMeasurement {

	/**
	 * Whether the workers of {@link #enqueueAndProcess} end items as the worker container
	 * does, without waiting for Redis ({@code -DdoneWithoutWaiting=true}), or with a
	 * {@code done} that waits.
	 */
	static final boolean DONE_WITHOUT_WAITING = Boolean.getBoolean("doneWithoutWaiting");

	/**
	 * Items each measured instance leases ahead of its workers ({@code -Dprefetch},
	 * default the builder's).
	 */
	static final int PREFETCH = Integer.getInteger("prefetch", RedisQueueBuilder.DEFAULT_PREFETCH);

	private static final int ITEMS = 100_000;

	/** Workers per instance ({@code -Dworkers}, default 4). */
	private static final int WORKERS_PER_INSTANCE = Integer.getInteger("workers", 4);

	private static final int HAND_OFFS = 5_000;

	/** Scripts and blocking pops: the commands a queue sends per item. */
	private static final Set<String> ROUND_TRIPS = Set.of("fcall", "evalsha", "eval", "blpop");

	private RedisMeasurement() {
	}

	public static void main(String[] args) throws Exception {
		try (MeasuredRedis redis = MeasuredRedis.start()) {
			String uri = redis.uri();
			System.out.println(redis.describe());
			System.out.printf("%-28s %12s %14s %16s%n", "queue", "items/s", "round trips", "redis us/item");
			System.out.printf("%-28s %,12.0f %14s %16s%n", "in-memory, 4 workers", inMemory(), "-", "-");
			for (int instances : new int[] { 1, 2, 4 }) {
				double[] result = redis(uri, instances);
				System.out.printf("%-28s %,12.0f %14.2f %16.1f%n", "redis, " + instances + " instance(s) x 4",
						result[0], result[1], result[2]);
			}
			System.out.printf("%-28s %,12.0f %14s%n", "redis, enqueue-and-process x 4", enqueueAndProcess(uri), "-");
			System.out.println("redis runs for 10 adds of one key while it waits: " + dedup(uri));
			double[] latency = handOff(uri);
			System.out.printf("hand-off add -> get returns (worker blocked in get): p50 %.3f ms, p99 %.3f ms%n",
					latency[0], latency[1]);
		}
	}

	private static double inMemory() throws InterruptedException {
		WorkQueue<String> queue = WorkQueue.builder().build();
		return run(List.of(queue), queue);
	}

	private static double[] redis(String uri, int instances) throws InterruptedException {
		String name = "bench-" + instances + "-" + System.nanoTime();
		List<RedisClient> clients = new ArrayList<>();
		List<WorkQueue<String>> queues = new ArrayList<>();
		for (int i = 0; i < instances; i++) {
			RedisClient client = RedisClient.create(uri);
			clients.add(client);
			queues.add(RedisQueue.builder(RedisQueueConnection.of(client), name)
				.holder("instance-" + i)
				.prefetch(PREFETCH)
				.build(ItemCodec.strings()));
		}
		RedisClient producerClient = RedisClient.create(uri);
		WorkQueue<String> producer = RedisQueue.builder(RedisQueueConnection.of(producerClient), name)
			.holder("producer")
			.build(ItemCodec.strings());
		var stats = producerClient.connect().sync();
		CommandStats before = CommandStats.read(stats);
		double cpuBefore = cpuSeconds(stats.info("cpu"));
		double itemsPerSecond = run(queues, producer);
		double cpuAfter = cpuSeconds(stats.info("cpu"));
		long roundTrips = CommandStats.read(stats).since(before).of(ROUND_TRIPS).calls();
		producer.shutDown();
		queues.forEach(WorkQueue::shutDown);
		clients.forEach(RedisClient::shutdown);
		producerClient.shutdown();
		return new double[] { itemsPerSecond, roundTrips / (double) ITEMS, (cpuAfter - cpuBefore) * 1e6 / ITEMS };
	}

	/**
	 * Four producers add {@link #ITEMS} distinct items first; then each queue's four
	 * workers take and finish them all. Returns items per second from the workers' start
	 * to the last done.
	 */
	private static double run(List<WorkQueue<String>> queues, WorkQueue<String> producer) throws InterruptedException {
		List<Thread> producers = new ArrayList<>();
		for (int p = 0; p < 4; p++) {
			int first = p;
			Thread adder = new Thread(() -> {
				for (int i = first; i < ITEMS; i += 4) {
					producer.add("item-" + i);
				}
			});
			adder.start();
			producers.add(adder);
		}
		for (Thread adder : producers) {
			adder.join();
		}
		CountDownLatch finished = new CountDownLatch(ITEMS);
		Ledger ledger = new Ledger(ITEMS);
		List<Thread> workers = new ArrayList<>();
		long start = System.nanoTime();
		for (WorkQueue<String> queue : queues) {
			for (int i = 0; i < WORKERS_PER_INSTANCE; i++) {
				Thread worker = new Thread(() -> {
					try {
						while (true) {
							Optional<String> item = queue.get();
							if (item.isEmpty()) {
								return;
							}
							ledger.processed(item.get());
							if (DONE_WITHOUT_WAITING && queue instanceof RedisQueue<String> redis) {
								redis.doneWithoutWaiting(item.get());
							}
							else {
								queue.done(item.get());
							}
							finished.countDown();
						}
					}
					catch (InterruptedException ex) {
						Thread.currentThread().interrupt();
					}
				});
				worker.start();
				workers.add(worker);
			}
		}
		if (!finished.await(10, TimeUnit.MINUTES)) {
			throw new IllegalStateException("items were not all processed");
		}
		ledger.check();
		double seconds = (System.nanoTime() - start) / 1e9;
		queues.forEach(WorkQueue::shutDown);
		for (Thread worker : workers) {
			worker.join(5000);
		}
		return ITEMS / seconds;
	}

	/**
	 * The workload measured against Rqueue: four producers add {@link #ITEMS} distinct
	 * items while one instance's four workers take and finish them; items per second from
	 * the first add to the last done.
	 */
	private static double enqueueAndProcess(String uri) throws InterruptedException {
		RedisClient client = RedisClient.create(uri);
		RedisQueue<String> queue = RedisQueue
			.builder(RedisQueueConnection.of(client), "enqueue-and-process-" + System.nanoTime())
			.prefetch(PREFETCH)
			.build(ItemCodec.strings());
		double itemsPerSecond = enqueueAndProcess(queue, ITEMS, 0, (i) -> queue.add("item-" + i)).itemsPerSecond();
		client.shutdown();
		return itemsPerSecond;
	}

	/**
	 * The enqueue-and-process workload on a queue: four producers each run {@code add}
	 * for a quarter of the numbers below {@code items} (one distinct item each), as fast
	 * as they can or paced, while the queue's four workers take and finish them; shuts
	 * the queue down.
	 * @param queue the queue
	 * @param items how many items
	 * @param addsPerSecond the four producers' pace together, or 0 for as fast as they
	 * can
	 * @param add adds the item of a number
	 * @return items per second from the first add to the last done
	 */
	static Run enqueueAndProcess(RedisQueue<String> queue, int items, int addsPerSecond, IntConsumer add)
			throws InterruptedException {
		CountDownLatch finished = new CountDownLatch(items);
		Ledger ledger = new Ledger(items);
		HandOffLatency handOffs = new HandOffLatency(items);
		List<Thread> threads = new ArrayList<>();
		for (int i = 0; i < WORKERS_PER_INSTANCE; i++) {
			threads.add(start(() -> {
				try {
					Optional<String> item;
					while ((item = queue.get()).isPresent()) {
						handOffs.taken(item.get());
						ledger.processed(item.get());
						if (DONE_WITHOUT_WAITING) {
							queue.doneWithoutWaiting(item.get());
						}
						else {
							queue.done(item.get());
						}
						finished.countDown();
					}
				}
				catch (InterruptedException ex) {
					Thread.currentThread().interrupt();
				}
			}));
		}
		long start = System.nanoTime();
		for (int p = 0; p < 4; p++) {
			int first = p;
			start(() -> {
				for (int i = first; i < items; i += 4) {
					if (addsPerSecond > 0) {
						// The add of number i is due i / addsPerSecond seconds after the
						// start, whatever the adds before it took.
						long due = start + (long) (i * 1e9 / addsPerSecond);
						long wait;
						while ((wait = due - System.nanoTime()) > 0) {
							LockSupport.parkNanos(wait);
						}
					}
					handOffs.adding(i);
					add.accept(i);
				}
			});
		}
		if (!finished.await(10, TimeUnit.MINUTES)) {
			throw new IllegalStateException("items were not all processed");
		}
		ledger.check();
		double seconds = (System.nanoTime() - start) / 1e9;
		queue.shutDown();
		for (Thread thread : threads) {
			thread.join(5000);
		}
		return new Run(items / seconds, handOffs);
	}

	/** What an enqueue-and-process run measured. */
	record Run(double itemsPerSecond, HandOffLatency handOffs) {
	}

	/**
	 * Ten adds of one key while no worker runs, then a worker: how many times it runs.
	 */
	private static int dedup(String uri) throws InterruptedException {
		RedisClient client = RedisClient.create(uri);
		RedisQueue<String> queue = RedisQueue.builder(RedisQueueConnection.of(client), "dedup-" + System.nanoTime())
			.build(ItemCodec.strings());
		for (int i = 0; i < 10; i++) {
			queue.add("same-key");
		}
		int runs = 0;
		Optional<String> item;
		while ((item = queue.get(Duration.ofSeconds(1))).isPresent()) {
			runs++;
			queue.done(item.get());
		}
		queue.shutDown();
		client.shutdown();
		return runs;
	}

	static Thread start(Runnable task) {
		Thread thread = new Thread(task);
		thread.start();
		return thread;
	}

	private static double[] handOff(String uri) throws InterruptedException {
		String name = "handoff-" + System.nanoTime();
		RedisClient client = RedisClient.create(uri);
		RedisQueue<String> queue = RedisQueue.builder(RedisQueueConnection.of(client), name)
			.holder("worker")
			.prefetch(PREFETCH)
			.build(ItemCodec.strings());
		AtomicLong addedAt = new AtomicLong();
		long[] latencies = new long[HAND_OFFS];
		AtomicReference<CountDownLatch> taken = new AtomicReference<>();
		Thread worker = new Thread(() -> {
			try {
				for (int i = 0; i < HAND_OFFS; i++) {
					String item = queue.get().orElseThrow();
					latencies[i] = System.nanoTime() - addedAt.get();
					queue.done(item);
					taken.get().countDown();
				}
			}
			catch (InterruptedException ex) {
				Thread.currentThread().interrupt();
			}
		});
		worker.start();
		for (int i = 0; i < HAND_OFFS; i++) {
			taken.set(new CountDownLatch(1));
			Thread.sleep(1); // the worker is back in its blocking wait
			addedAt.set(System.nanoTime());
			queue.add("item-" + i);
			if (!taken.get().await(10, TimeUnit.SECONDS)) {
				throw new IllegalStateException("hand-off " + i + " did not arrive");
			}
		}
		worker.join();
		queue.shutDown();
		client.shutdown();
		Arrays.sort(latencies);
		return new double[] { latencies[HAND_OFFS / 2] / 1e6, latencies[HAND_OFFS * 99 / 100] / 1e6 };
	}

	/**
	 * Which items were processed, and how often: a measurement counts only if every item
	 * added was processed exactly once (no lease expires during a run, so none may run
	 * twice).
	 */
	private static final class Ledger {

		private final Map<String, AtomicInteger> runs = new ConcurrentHashMap<>();

		private final int items;

		Ledger(int items) {
			this.items = items;
		}

		void processed(String item) {
			this.runs.computeIfAbsent(item, (key) -> new AtomicInteger()).incrementAndGet();
		}

		void check() {
			long twice = this.runs.values().stream().filter((count) -> count.get() > 1).count();
			if (this.runs.size() != this.items || twice > 0) {
				throw new IllegalStateException("lost or processed twice: " + this.runs.size() + " of " + this.items
						+ " items, " + twice + " twice");
			}
		}

	}

	/** redis-server's user plus system CPU seconds so far, from {@code INFO cpu}. */
	static double cpuSeconds(String cpu) {
		double seconds = 0;
		for (String line : cpu.split("\r?\n")) {
			if (line.startsWith("used_cpu_user:") || line.startsWith("used_cpu_sys:")) {
				seconds += Double.parseDouble(line.substring(line.indexOf(':') + 1).trim());
			}
		}
		return seconds;
	}

	static int freePort() throws IOException {
		try (ServerSocket socket = new ServerSocket(0)) {
			return socket.getLocalPort();
		}
	}

}
