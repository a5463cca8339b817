package io.github.workqueue.benchmarks;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.IntFunction;

import io.github.workqueue.autoconfigure.metrics.MicrometerMetricsProvider;
import io.github.workqueue.redis.ItemCodec;
import io.github.workqueue.redis.RedisQueue;
import io.github.workqueue.redis.RedisQueueBuilder;
import io.github.workqueue.redis.RedisQueueConnection;
import io.lettuce.core.RedisClient;
import io.lettuce.core.api.sync.RedisCommands;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;

/**
 * Issue 60's figures: the queue at the settings a starter user runs, against the floor
 * ({@link MinimalLuaQueue}, 64 items per call) on the same Redis in the same run. Each
 * line: items per second, redis-server CPU per item ({@code INFO cpu}), commands per item
 * ({@code INFO commandstats}, the scripts' own commands included) and this JVM's CPU per
 * item.
 * <ul>
 * <li><b>drain</b>: a backlog of {@code -Ditems} added first (not measured), then taken
 * and finished: the floor's one consumer takes 64 per call and ends them in the next; the
 * queue's workers (1, the starter's default, then {@code -Dworkers}) block in {@code get}
 * and end each item with {@code doneWithoutWaiting}, as the worker container does, at the
 * builder's defaults (adaptive prefetch, metrics on through Micrometer);</li>
 * <li><b>steady</b>: four producers add while the consumers work; the floor's producers
 * add 64 per call, then one per call (each waiting for its answer: the most a queue can
 * do in this shape with one round trip per add), the queue's add one item per {@code add}
 * (waiting for each answer), or one producer pipelining {@code addAsync}.</li>
 * </ul>
 * Every item is checked to be processed exactly once. Run: {@code java -cp
 * workqueue-benchmarks/target/benchmarks.jar
 * io.github.workqueue.benchmarks.DefaultsMeasurement}.
 */
public final class DefaultsMeasurement {

	private static final int ITEMS = Integer.getInteger("items", 100_000);

	private static final int[] WORKERS = parse(System.getProperty("workers", "1,32"));

	private static final int PRODUCERS = 4;

	private static final int FLOOR_BATCH = 64;

	/**
	 * Whether each line is followed by its commands per item ({@code -DshowCommands}).
	 */
	private static final boolean SHOW_COMMANDS = Boolean.getBoolean("showCommands");

	/**
	 * The queue's prefetch ({@code -Dprefetch}), fixed unless {@code -Dadaptive=true};
	 * the builder's default (adaptive, up to 64) when not given.
	 */
	private static final Integer PREFETCH = Integer.getInteger("prefetch");

	private static final boolean ADAPTIVE = Boolean.getBoolean("adaptive");

	/**
	 * Whether the workers are virtual threads ({@code -Dvirtual}, JDK 21 or later), as
	 * the worker container runs them with {@code spring.threads.virtual.enabled=true}.
	 */
	private static final boolean VIRTUAL = Boolean.getBoolean("virtual");

	/**
	 * Whether every add carries a trace context ({@code -Dtraced}), as with a tracer and
	 * a current span, and every worker reads its item's, as the worker container does.
	 */
	private static final boolean TRACED = Boolean.getBoolean("traced");

	/** The context each add carries with {@code -Dtraced}: a W3C traceparent. */
	private static final String CONTEXT = "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01";

	/** Which runs to make ({@code -Druns}, default all): drain, steady, async. */
	private static final String RUNS = System.getProperty("runs", "drain,steady,async");

	private DefaultsMeasurement() {
	}

	public static void main(String[] args) throws Exception {
		try (MeasuredRedis redis = MeasuredRedis.start()) {
			String uri = redis.uri();
			System.out.println(redis.describe() + ", " + ITEMS + " items, JDK " + Runtime.version().feature()
					+ (VIRTUAL ? ", virtual-thread workers" : ""));
			RedisPriorityMeasurement.warmUp(uri);
			System.out.printf("%-52s %12s %14s %14s %12s%n", "run", "items/s", "redis us/item", "commands/item",
					"JVM us/item");
			if (RUNS.contains("drain")) {
				floorDrain(uri);
				for (int workers : WORKERS) {
					queueDrain(uri, workers);
				}
			}
			if (RUNS.contains("steady") || RUNS.contains("async")) {
				floorSteady(uri, FLOOR_BATCH);
				floorSteady(uri, 1);
			}
			if (RUNS.contains("steady")) {
				for (int workers : WORKERS) {
					queueSteady(uri, workers, false);
				}
			}
			if (RUNS.contains("async")) {
				queueSteady(uri, WORKERS[WORKERS.length - 1], true);
			}
		}
	}

	/** The cost of one run, read around it. */
	private static final class Meter {

		private final RedisCommands<String, String> stats;

		private final CommandStats commands;

		private final double redisCpu;

		private final long jvmCpu;

		private long start;

		Meter(RedisCommands<String, String> stats) {
			this.stats = stats;
			this.commands = CommandStats.read(stats);
			this.redisCpu = RedisMeasurement.cpuSeconds(stats.info("cpu"));
			this.jvmCpu = RedisPriorityMeasurement.jvmCpuNanos();
			this.start = System.nanoTime();
		}

		void report(String label) {
			double seconds = (System.nanoTime() - this.start) / 1e9;
			long jvm = RedisPriorityMeasurement.jvmCpuNanos() - this.jvmCpu;
			double redis = RedisMeasurement.cpuSeconds(this.stats.info("cpu")) - this.redisCpu;
			CommandStats ran = CommandStats.read(this.stats).since(this.commands);
			System.out.printf("%-52s %,12.0f %14.1f %14.2f %12.1f%n", label, ITEMS / seconds, redis * 1e6 / ITEMS,
					ran.commands().calls() / (double) ITEMS, jvm / 1e3 / ITEMS);
			if (SHOW_COMMANDS) {
				System.out.println("    per item: " + ran.perUnit(ITEMS));
			}
		}

	}

	private static void floorDrain(String uri) {
		RedisClient client = RedisClient.create(uri);
		RedisCommands<String, String> stats = client.connect().sync();
		MinimalLuaQueue.load(stats);
		String name = "floor-drain-" + System.nanoTime();
		MinimalLuaQueue queue = new MinimalLuaQueue(client.connect().sync(), name, 30_000_000);
		List<String> batch = new ArrayList<>(256);
		for (int i = 0; i < ITEMS; i++) {
			batch.add("item-" + i);
			if (batch.size() == 256 || i == ITEMS - 1) {
				queue.add(batch);
				batch.clear();
			}
		}
		Meter meter = new Meter(stats);
		Ledger ledger = new Ledger();
		List<MinimalLuaQueue.Lease> held = List.of();
		int processed = 0;
		while (processed < ITEMS) {
			held = queue.cycle(held, FLOOR_BATCH).leases();
			held.forEach((lease) -> ledger.processed(lease.item()));
			processed += held.size();
		}
		queue.cycle(held, 0);
		meter.report("drain: floor, 64 per call");
		ledger.check(queue.len());
		client.shutdown();
	}

	/**
	 * The floor's steady run, its producers adding {@code perCall} items per call: 64,
	 * the yardstick; 1, the bound of the queue's shape, where each producer waits for
	 * each add's answer as the queue's producers do.
	 */
	private static void floorSteady(String uri, int perCall) throws InterruptedException {
		RedisClient client = RedisClient.create(uri);
		RedisCommands<String, String> stats = client.connect().sync();
		MinimalLuaQueue.load(stats);
		String name = "floor-steady-" + System.nanoTime();
		Meter meter = new Meter(stats);
		List<Thread> producers = new ArrayList<>();
		for (int p = 0; p < PRODUCERS; p++) {
			int first = p;
			producers.add(RedisMeasurement.start(() -> {
				MinimalLuaQueue queue = new MinimalLuaQueue(client.connect().sync(), name, 30_000_000);
				List<String> items = new ArrayList<>(perCall);
				for (int i = first; i < ITEMS; i += PRODUCERS) {
					items.add("item-" + i);
					if (items.size() == perCall || i + PRODUCERS >= ITEMS) {
						queue.add(items);
						items.clear();
					}
				}
			}));
		}
		Ledger ledger = new Ledger();
		MinimalLuaQueue consumer = new MinimalLuaQueue(client.connect().sync(), name, 30_000_000);
		List<MinimalLuaQueue.Lease> held = List.of();
		int processed = 0;
		while (processed < ITEMS) {
			held = consumer.cycle(held, FLOOR_BATCH).leases();
			held.forEach((lease) -> ledger.processed(lease.item()));
			processed += held.size();
			if (held.isEmpty()) {
				Thread.onSpinWait();
			}
		}
		consumer.cycle(held, 0);
		meter.report("steady: floor, 4 producers, " + perCall + " per call");
		for (Thread producer : producers) {
			producer.join();
		}
		ledger.check(consumer.len());
		client.shutdown();
	}

	private static RedisQueue<String> queue(RedisClient client, String name) {
		RedisQueueBuilder builder = RedisQueue.builder(RedisQueueConnection.of(client), name)
			.metricsProvider(new MicrometerMetricsProvider(new PrometheusMeterRegistry(PrometheusConfig.DEFAULT)));
		if (PREFETCH != null) {
			builder.prefetch(PREFETCH).adaptivePrefetch(ADAPTIVE);
		}
		if (TRACED) {
			builder.traceCapture(() -> CONTEXT);
		}
		return builder.build(ItemCodec.strings());
	}

	private static void queueDrain(String uri, int workers) throws InterruptedException {
		RedisClient client = RedisClient.create(uri);
		RedisCommands<String, String> stats = client.connect().sync();
		String name = "defaults-drain-" + System.nanoTime();
		RedisQueue<String> queue = queue(client, name);
		List<String> items = new ArrayList<>(ITEMS);
		for (int i = 0; i < ITEMS; i++) {
			items.add("item-" + i);
		}
		queue.addAll(items);
		Ledger ledger = new Ledger();
		Meter meter = new Meter(stats);
		List<Thread> threads = startWorkers(queue, workers, ledger);
		ledger.finished.await();
		meter.report("drain: defaults, " + workers + " worker" + ((workers == 1) ? "" : "s"));
		finish(queue, threads, ledger, client);
	}

	private static void queueSteady(String uri, int workers, boolean async) throws InterruptedException {
		RedisClient client = RedisClient.create(uri);
		RedisCommands<String, String> stats = client.connect().sync();
		String name = "defaults-steady-" + System.nanoTime();
		RedisQueue<String> queue = queue(client, name);
		Ledger ledger = new Ledger();
		Meter meter = new Meter(stats);
		List<Thread> threads = startWorkers(queue, workers, ledger);
		IntFunction<Runnable> producer = (first) -> () -> {
			for (int i = first; i < ITEMS; i += PRODUCERS) {
				queue.add("item-" + i);
			}
		};
		List<Thread> producers = new ArrayList<>();
		if (async) {
			producers.add(RedisMeasurement.start(() -> {
				List<CompletableFuture<Void>> acks = new ArrayList<>(ITEMS);
				for (int i = 0; i < ITEMS; i++) {
					acks.add(queue.addAsync("item-" + i).toCompletableFuture());
				}
				CompletableFuture.allOf(acks.toArray(CompletableFuture[]::new)).join();
			}));
		}
		else {
			for (int p = 0; p < PRODUCERS; p++) {
				producers.add(RedisMeasurement.start(producer.apply(p)));
			}
		}
		ledger.finished.await();
		meter.report("steady: defaults, " + (async ? "1 producer addAsync" : "4 producers add") + ", " + workers
				+ " worker" + ((workers == 1) ? "" : "s"));
		for (Thread thread : producers) {
			thread.join();
		}
		finish(queue, threads, ledger, client);
	}

	/** Workers as the container runs them: {@code get}, then a done without waiting. */
	private static List<Thread> startWorkers(RedisQueue<String> queue, int workers, Ledger ledger) {
		List<Thread> threads = new ArrayList<>(workers);
		for (int w = 0; w < workers; w++) {
			threads.add(startWorker(() -> {
				while (true) {
					Optional<String> item;
					try {
						item = queue.get();
					}
					catch (InterruptedException ex) {
						return;
					}
					if (item.isEmpty()) {
						return;
					}
					if (TRACED) {
						queue.addTraces(item.get()).orElseThrow();
					}
					ledger.processed(item.get());
					queue.doneWithoutWaiting(item.get());
				}
			}));
		}
		return threads;
	}

	private static Thread startWorker(Runnable task) {
		if (!VIRTUAL) {
			return RedisMeasurement.start(task);
		}
		try {
			// Thread.ofVirtual().start(task), on JDK 21 or later; this module builds for
			// 17.
			Object builder = Thread.class.getMethod("ofVirtual").invoke(null);
			return (Thread) Class.forName("java.lang.Thread$Builder")
				.getMethod("start", Runnable.class)
				.invoke(builder, task);
		}
		catch (ReflectiveOperationException ex) {
			throw new IllegalStateException("-Dvirtual needs JDK 21 or later", ex);
		}
	}

	private static void finish(RedisQueue<String> queue, List<Thread> threads, Ledger ledger, RedisClient client)
			throws InterruptedException {
		queue.shutDownWithDrain();
		for (Thread thread : threads) {
			thread.join();
		}
		ledger.check(queue.len());
		client.shutdown();
	}

	/** Every item processed exactly once. */
	private static final class Ledger {

		private final AtomicInteger[] seen = new AtomicInteger[ITEMS];

		private final AtomicInteger twice = new AtomicInteger();

		final CountDownLatch finished = new CountDownLatch(ITEMS);

		Ledger() {
			for (int i = 0; i < ITEMS; i++) {
				this.seen[i] = new AtomicInteger();
			}
		}

		void processed(String item) {
			if (this.seen[Integer.parseInt(item.substring(5))].getAndIncrement() > 0) {
				this.twice.incrementAndGet();
			}
			else {
				this.finished.countDown();
			}
		}

		void check(long left) {
			if (this.twice.get() > 0 || left != 0 || this.finished.getCount() != 0) {
				throw new IllegalStateException(this.twice.get() + " items processed twice, " + left + " left, "
						+ this.finished.getCount() + " never processed");
			}
		}

	}

	private static int[] parse(String list) {
		String[] parts = list.split(",");
		int[] numbers = new int[parts.length];
		for (int i = 0; i < parts.length; i++) {
			numbers[i] = Integer.parseInt(parts[i].trim());
		}
		return numbers;
	}

}
