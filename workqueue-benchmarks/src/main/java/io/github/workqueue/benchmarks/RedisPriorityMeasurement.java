package io.github.workqueue.benchmarks;

import java.lang.management.ManagementFactory;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.IntFunction;

import io.lettuce.core.RedisClient;

import io.github.workqueue.core.AddOptions;
import io.github.workqueue.core.FairnessKeyExtractor;
import io.github.workqueue.redis.ItemCodec;
import io.github.workqueue.redis.RedisQueue;
import io.github.workqueue.redis.RedisQueueBuilder;
import io.github.workqueue.redis.RedisQueueConnection;

/**
 * Issue 21 on Redis (the embedded {@code redis-server}, or the one at
 * {@code WORKQUEUE_BENCH_REDIS_URL}), each figure beside the FIFO measured in the same
 * run:
 * <ul>
 * <li>enqueue-and-process (as {@code RedisMeasurement}: four producers add 100k distinct
 * items while one instance's four workers take and finish them), with plain adds (the
 * FIFO), with adds at three priorities, and with three priorities and fairness over ten
 * tenants; items per second, redis-server CPU per item ({@code INFO cpu}), the time spent
 * in scripts, the scripts and the Redis commands inside them per item, and each command's
 * calls and time per item ({@code INFO commandstats});</li>
 * <li>the same at a pace the workers keep up with ({@link #PACED_ITEMS} items at
 * {@link #PACE} adds per second): the cost per item of a queue that is not saturated,
 * where most items are taken in the call that adds them;</li>
 * <li>fairness: one tenant with 100k ready items and nine with 10 each, then one worker
 * takes them: the position of the small tenants' last item among the gets (the issue asks
 * for at most 100).</li>
 * </ul>
 * Every item is checked to be processed exactly once (by {@code RedisMeasurement}'s
 * ledger). Each run also prints this JVM's CPU per item (all its threads).
 * {@code -Ditems}, {@code -DpacedItems}, {@code -DfairnessRun=false} and
 * {@code -DpriorityRuns=false} (the FIFO only) shorten a run; {@code -Dwarmup=N} runs N
 * items first, not reported; {@code -DdoneWithoutWaiting=true} ends items as the worker
 * container does; {@code -Dprefetch=N} leases up to N items ahead of the workers;
 * {@code -Dworkers=N} runs N workers (default 4); {@code -DaddAll=N} makes each producer
 * of the FIFO runs add N items per {@code addAll} call; {@code -DreplicasAck=N} makes
 * each add and done wait for N replicas (the server needs them). Run: {@code java -cp
 * workqueue-benchmarks/target/benchmarks.jar
 * io.github.workqueue.benchmarks.RedisPriorityMeasurement}.
 */
public final class RedisPriorityMeasurement {

	private static final int ITEMS = Integer.getInteger("items", 100_000);

	private static final int PACED_ITEMS = Integer.getInteger("pacedItems", 20_000);

	/**
	 * Adds per second of the paced runs ({@code -Dpace}): half or less of what each queue
	 * takes here.
	 */
	private static final int PACE = Integer.getInteger("pace", 2_000);

	/** Replicas that confirm each add and done ({@code -DreplicasAck}, default 0). */
	private static final int REPLICAS_ACK = Integer.getInteger("replicasAck", 0);

	/**
	 * Items per {@code addAll} call of each producer ({@code -DaddAll}), all of one
	 * priority, or 1 (the default) for one {@code add} per item.
	 */
	private static final int ADD_ALL = Integer.getInteger("addAll", 1);

	/**
	 * Items of a FIFO run made first and not reported ({@code -Dwarmup}, default 0), so
	 * that the JVM's CPU per item of the runs after it leaves out the JIT's work.
	 */
	private static final int WARM_UP = Integer.getInteger("warmup", 0);

	private static final FairnessKeyExtractor<String> TENANT = (item) -> List.of(item.substring(0, item.indexOf('/')));

	private RedisPriorityMeasurement() {
	}

	public static void main(String[] args) throws Exception {
		try (MeasuredRedis redis = MeasuredRedis.start()) {
			String uri = redis.uri();
			System.out.println(redis.describe());
			warmUp(uri);
			header("enqueue-and-process, prefetch " + RedisMeasurement.PREFETCH
					+ ((REPLICAS_ACK > 0) ? ", replicas-ack " + REPLICAS_ACK : ""));
			reportModes(uri, ITEMS, 0);
			System.out.printf("%-34s%n", "paced at " + PACE + " adds/s");
			reportModes(uri, PACED_ITEMS, PACE);
			if (Boolean.parseBoolean(System.getProperty("fairnessRun", "true"))) {
				System.out
					.println("fairness, 100k ready items of one tenant and 10 of nine others: last small item at get "
							+ fairness(uri));
			}
		}
	}

	/**
	 * Runs {@code -Dwarmup} items through a FIFO, not reported, so that the JIT compiles
	 * the client's paths before the runs that are.
	 */
	static void warmUp(String uri) throws InterruptedException {
		if (WARM_UP > 0) {
			RedisClient warming = RedisClient.create(uri);
			enqueueAndProcess(warming, false, (i) -> null, WARM_UP, 0);
			warming.shutdown();
		}
	}

	/** The label of a run: how its producers add. */
	static String labelled(String first) {
		return first + ((ADD_ALL > 1) ? ", addAll of " + ADD_ALL : ", plain adds");
	}

	/** The column heads of {@link #report}'s lines. */
	static void header(String first) {
		System.out.printf("%-34s %12s %16s %19s %14s %15s %14s%n", first, "items/s", "redis us/item",
				"in scripts us/item", "scripts/item", "commands/item", "JVM us/item");
	}

	/** The FIFO, priorities, and priorities with fairness, one after the other. */
	private static void reportModes(String uri, int items, int pace) throws InterruptedException {
		IntFunction<AddOptions> threePriorities = (i) -> AddOptions.priority(i % 3 - 1);
		report(uri, labelled("fifo"), false, (i) -> null, items, pace);
		if (Boolean.parseBoolean(System.getProperty("priorityRuns", "true"))) {
			report(uri, labelled("3 priorities"), false, threePriorities, items, pace);
			report(uri, labelled("3 priorities + fairness (10)"), true, threePriorities, items, pace);
		}
	}

	static void report(String uri, String label, boolean fair, IntFunction<AddOptions> options, int items, int pace)
			throws InterruptedException {
		RedisClient client = RedisClient.create(uri);
		var stats = client.connect().sync();
		CommandStats commandsBefore = CommandStats.read(stats);
		double cpuBefore = RedisMeasurement.cpuSeconds(stats.info("cpu"));
		long jvmBefore = jvmCpuNanos();
		RedisMeasurement.Run run = enqueueAndProcess(client, fair, options, items, pace);
		double itemsPerSecond = run.itemsPerSecond();
		long jvmNanos = jvmCpuNanos() - jvmBefore;
		double cpuAfter = RedisMeasurement.cpuSeconds(stats.info("cpu"));
		CommandStats ran = CommandStats.read(stats).since(commandsBefore);
		client.shutdown();
		CommandStats.Counts scripts = ran.of(CommandStats.SCRIPTS);
		System.out.printf("%-34s %,12.0f %16.1f %19.1f %14.2f %15.1f %14.1f%n", label, itemsPerSecond,
				(cpuAfter - cpuBefore) * 1e6 / items, scripts.micros() / (double) items,
				scripts.calls() / (double) items, ran.commands().calls() / (double) items, jvmNanos / 1e3 / items);
		double[] handOff = run.handOffs().millisAt(0.5, 0.99, 0.999);
		System.out.printf("  hand-off add -> get: p50 %.2f ms, p99 %.2f ms, p99.9 %.2f ms%n", handOff[0], handOff[1],
				handOff[2]);
		System.out.println("  per item: " + ran.perUnit(items));
	}

	/** This JVM's CPU time so far: producer, workers, sender, Lettuce, all threads. */
	static long jvmCpuNanos() {
		return ((com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean())
			.getProcessCpuTime();
	}

	private static RedisQueue<String> queue(RedisClient client, String name, boolean fair) {
		RedisQueueBuilder builder = RedisQueue.builder(RedisQueueConnection.of(client), name)
			.prefetch(RedisMeasurement.PREFETCH)
			.replicasAck(REPLICAS_ACK);
		return (fair ? builder.fairness(TENANT) : builder).build(ItemCodec.strings());
	}

	private static RedisMeasurement.Run enqueueAndProcess(RedisClient client, boolean fair,
			IntFunction<AddOptions> options, int items, int pace) throws InterruptedException {
		RedisQueue<String> queue = queue(client, "priority-bench-" + System.nanoTime(), fair);
		// Per producer, the items gathered for its next addAll, by their options.
		ThreadLocal<Map<AddOptions, List<String>>> gathered = ThreadLocal.withInitial(LinkedHashMap::new);
		return RedisMeasurement.enqueueAndProcess(queue, items, pace, (i) -> {
			String item = "tenant" + (i % 10) + "/" + i;
			AddOptions add = options.apply(i);
			if (ADD_ALL > 1) {
				AddOptions each = (add != null) ? add : AddOptions.defaults();
				Map<AddOptions, List<String>> mine = gathered.get();
				List<String> batch = mine.computeIfAbsent(each, (key) -> new ArrayList<>());
				batch.add(item);
				if (batch.size() == ADD_ALL) {
					queue.addAll(batch, each);
					batch.clear();
				}
				// Each producer adds the numbers p, p + 4, ...: its last is within 4 of
				// the end.
				if (i + 4 >= items) {
					mine.forEach((left, rest) -> queue.addAll(rest, left));
					mine.clear();
				}
			}
			else if (add == null) {
				queue.add(item);
			}
			else {
				queue.add(item, add);
			}
		});
	}

	private static int fairness(String uri) throws InterruptedException {
		RedisClient client = RedisClient.create(uri);
		RedisQueue<String> queue = queue(client, "fairness-bench-" + System.nanoTime(), true);
		List<Thread> adders = new ArrayList<>();
		for (int p = 0; p < 4; p++) {
			int first = p;
			adders.add(RedisMeasurement.start(() -> {
				for (int i = first; i < ITEMS; i += 4) {
					queue.add("big/" + i);
				}
			}));
		}
		for (Thread adder : adders) {
			adder.join();
		}
		for (int tenant = 0; tenant < 9; tenant++) {
			for (int i = 0; i < 10; i++) {
				queue.add("small" + tenant + "/" + i);
			}
		}
		int worst = 0;
		int small = 0;
		for (int position = 1; small < 90; position++) {
			String item = queue.get().orElseThrow();
			if (item.startsWith("small")) {
				small++;
				worst = position;
			}
			queue.done(item);
		}
		queue.shutDown();
		client.shutdown();
		return worst;
	}

}
