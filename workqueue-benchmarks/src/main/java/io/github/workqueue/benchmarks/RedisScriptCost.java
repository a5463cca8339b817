package io.github.workqueue.benchmarks;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.IntFunction;

import io.github.workqueue.redis.internal.link.Script;
import io.lettuce.core.RedisClient;
import io.lettuce.core.ScriptOutputType;
import io.lettuce.core.api.sync.RedisCommands;

/**
 * What the Redis queue's batch script costs inside redis-server, by the number of items a
 * call carries, without the network: the queue's own {@code batch.lua} with the files it
 * includes, loaded as a function library of their own, called directly with batches of 1,
 * 4, 16 and 64 adds (to a queue that grows), adds with leases of the same items (so that
 * the queue stays empty, as when workers keep up), dones of those leases, and calls that
 * do all three (each adds new items, ends the leases the call before it granted and
 * leases again: the steady state of workers that keep up, one call per round); with plain
 * adds, adds at three priorities, and with fairness over ten keys. Prints, from
 * {@code INFO commandstats}, the script's microseconds per call and per item, and the
 * commands it ran per call with their own microseconds (the rest of a call's time is the
 * Lua around them), then how many of each command a call ran, and their time. Three fixed
 * costs first: a function that returns 1, one that runs only {@code begin} (its keys and
 * {@code TIME}), and a batch with nothing in it. One client, one call at a time, on an
 * embedded {@code redis-server} of its own (or the one at
 * {@code WORKQUEUE_BENCH_REDIS_URL}, beside whose data its library and keys are loaded).
 * Run: {@code java -cp
 * workqueue-benchmarks/target/benchmarks.jar
 * io.github.workqueue.benchmarks.RedisScriptCost [batch size...]} (1, 4, 16 and 64 when
 * none are given); {@code -Dcost.items=N} runs N items per case instead of 40,000 and
 * {@code -Dcost.modes=priorities,...} some of the three modes only (for a server under
 * {@code valgrind --tool=callgrind}, whose instruction counts, unlike times, repeat from
 * run to run); {@code -Dcost.aroundCase=COMMAND} runs {@code COMMAND start LABEL} before
 * each case and {@code COMMAND end LABEL} after it (to zero and dump such counts per case
 * with {@code callgrind_control}). The argument layout of {@code batch.lua} is the one
 * its header describes; this class follows it.
 */
public final class RedisScriptCost {

	private static final String SCRIPTS = "/io/github/workqueue/redis/internal/link/scripts/";

	private static final String TAG = "{cost}:";

	/**
	 * A holder as long as the queue's default ("pid@host#" and eight hex digits): it is
	 * part of each lease's value in the in-flight hash, whose values above 64 bytes make
	 * Redis keep that hash as a hash table instead of a listpack it scans.
	 */
	private static final String HOLDER = "48213@worker-host#1a2b3c4d";

	/** The id the measured parts are sent under. */
	private static final String SENDER = "cost-sender";

	/** The number of the last measured part: each gets the next. */
	private static final AtomicLong PART_NUMBERS = new AtomicLong();

	private static final int ITEMS_PER_CASE = Integer.getInteger("cost.items", 40_000);

	private static final String[] MODES = System.getProperty("cost.modes", "plain,priorities,fairness").split(",");

	private static final int FIXED_CALLS = Math.min(20_000, ITEMS_PER_CASE / 2);

	private final RedisCommands<String, String> redis;

	/**
	 * The queue's key alone, as the queue gives its scripts: they name the others after
	 * it (its name's {@code queue} replaced by each one's suffix, all under the tag).
	 */
	private final String[] keys = { TAG + "queue" };

	private final int[] batchSizes;

	private int nextItem;

	private RedisScriptCost(RedisCommands<String, String> redis, int[] batchSizes) {
		this.redis = redis;
		this.batchSizes = batchSizes;
	}

	public static void main(String[] args) throws Exception {
		try (MeasuredRedis redis = MeasuredRedis.start()) {
			System.out.println(redis.describe());
			RedisClient client = RedisClient.create(redis.uri());
			try {
				int[] batchSizes = (args.length > 0) ? Arrays.stream(args).mapToInt(Integer::parseInt).toArray()
						: new int[] { 1, 4, 16, 64 };
				new RedisScriptCost(client.connect().sync(), batchSizes).run();
			}
			finally {
				client.shutdown();
			}
		}
	}

	private void run() throws IOException {
		this.redis.functionLoad(library(), true);
		// A queue left by an earlier run on the same server would dedup this run's adds.
		clear();
		System.out.printf("%-32s %10s %10s %10s %10s%n", "case", "us/call", "us/item", "cmds/call", "cmd us/call");
		measure("function returning 1", "cost_bare", 1, FIXED_CALLS, (i) -> new String[] { "" });
		measure("begin (keys, TIME)", "cost_begin", 1, FIXED_CALLS, (i) -> new String[] { "" });
		measure("batch with nothing", "cost_batch", 1, FIXED_CALLS, (i) -> batch(List.of(), List.of(), 0, "plain"));
		for (String mode : MODES) {
			for (int k : this.batchSizes) {
				int calls = ITEMS_PER_CASE / k;
				measure(mode + ", add x" + k, "cost_batch", k, calls, (i) -> batch(items(k), List.of(), 0, mode));
				clear();
				List<String> leases = new ArrayList<>();
				measure(mode + ", add + lease x" + k, "cost_batch", k, calls,
						(i) -> batch(items(k), List.of(), k, mode), leases);
				int[] next = { 0 };
				measure(mode + ", done x" + k, "cost_batch", k, calls, (i) -> {
					List<String> dones = leases.subList(next[0], next[0] + 2 * k);
					next[0] += 2 * k;
					return batch(List.of(), dones, 0, mode);
				});
				List<String> held = new ArrayList<>();
				measure(mode + ", add + done + lease x" + k, "cost_batch", k, calls, (i) -> {
					List<String> dones = (i == 0) ? List.of() : held.subList(2 * k * (i - 1), 2 * k * i);
					return batch(items(k), dones, k, mode);
				}, held);
				clear();
			}
		}
	}

	/** Deletes the queue's keys: the next case starts from an empty queue. */
	private void clear() {
		List<String> left = this.redis.keys(TAG + "*");
		if (!left.isEmpty()) {
			this.redis.del(left.toArray(new String[0]));
		}
	}

	/** The queue's scripts as a library of their own, beside the queue's. */
	private static String library() throws IOException {
		String batch = resource("batch.lua");
		return "#!lua name=workqueue_cost\n" + Script.included(Script.BATCH)
				+ "redis.register_function('cost_bare', function(KEYS, ARGV) return 1 end)\n"
				+ "redis.register_function('cost_begin', function(KEYS, ARGV)\nbegin(KEYS, ARGV)\nreturn 1\nend)\n"
				+ "redis.register_function('cost_batch', function(KEYS, ARGV)\nbegin(KEYS, ARGV)\n" + batch
				+ "\nend)\n";
	}

	private static String resource(String name) throws IOException {
		try (InputStream in = RedisScriptCost.class.getResourceAsStream(SCRIPTS + name)) {
			if (in == null) {
				throw new IOException("no script " + name + " on the class path");
			}
			return new String(in.readAllBytes(), StandardCharsets.UTF_8);
		}
	}

	private List<String> items(int count) {
		List<String> items = new ArrayList<>(count);
		for (int i = 0; i < count; i++) {
			items.add("item-" + this.nextItem++);
		}
		return items;
	}

	/**
	 * ARGV of {@code batch.lua}: Redis's time, holder, lease, most expiries, ended lease
	 * memory, the sender's id, the part's number (the next, as a sender numbers its
	 * parts), the counts, the plain adds, the dones, then the adds with options.
	 */
	private static String[] batch(List<String> adds, List<String> dones, int leases, String mode) {
		boolean plain = mode.equals("plain");
		List<String> argv = new ArrayList<>(List.of("", HOLDER, "30000000", "-1", "60000000", SENDER,
				Long.toString(PART_NUMBERS.incrementAndGet()), Integer.toString(plain ? adds.size() : 0),
				Integer.toString(dones.size() / 2), Integer.toString(leases)));
		if (plain) {
			argv.addAll(adds);
		}
		argv.addAll(dones);
		argv.add(Integer.toString(plain ? 0 : adds.size()));
		if (!plain) {
			for (String item : adds) {
				int n = Integer.parseInt(item.substring(item.indexOf('-') + 1));
				argv.add(item);
				argv.add(Integer.toString(n % 3 - 1));
				argv.add(mode.equals("fairness") ? "[\"tenant-" + (n % 10) + "\"]" : "");
			}
		}
		return argv.toArray(new String[0]);
	}

	/** Runs the command of {@code -Dcost.aroundCase}, if given, and waits for it. */
	private static void aroundCase(String phase, String label) {
		String command = System.getProperty("cost.aroundCase");
		if (command == null) {
			return;
		}
		try {
			int status = new ProcessBuilder(command, phase, label).inheritIO().start().waitFor();
			if (status != 0) {
				throw new IllegalStateException(command + " " + phase + " '" + label + "' exited with " + status);
			}
		}
		catch (IOException ex) {
			throw new UncheckedIOException(ex);
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			throw new IllegalStateException(ex);
		}
	}

	private void measure(String label, String function, int perCall, int calls, IntFunction<String[]> argv) {
		measure(label, function, perCall, calls, argv, null);
	}

	/**
	 * Runs the calls and prints their cost; when leases is given, adds each granted
	 * lease's item and token to it.
	 */
	private void measure(String label, String function, int perCall, int calls, IntFunction<String[]> argv,
			List<String> leases) {
		aroundCase("start", label);
		CommandStats before = CommandStats.read(this.redis);
		for (int i = 0; i < calls; i++) {
			List<Object> reply = this.redis.fcall(function, ScriptOutputType.MULTI, this.keys, argv.apply(i));
			if (leases != null) {
				// Each lease is five values at the end: item, token, deadline, queued,
				// priority.
				for (int at = reply.size() - 5 * perCall; at < reply.size(); at += 5) {
					leases.add((String) reply.get(at));
					leases.add(String.valueOf(reply.get(at + 1)));
				}
			}
		}
		CommandStats ran = CommandStats.read(this.redis).since(before);
		aroundCase("end", label);
		double scriptMicros = ran.of(CommandStats.SCRIPTS).micros();
		CommandStats.Counts commands = ran.commands();
		System.out.printf("%-32s %10.2f %10.2f %10.1f %10.2f%n", label, scriptMicros / calls,
				scriptMicros / calls / perCall, commands.calls() / (double) calls, commands.micros() / (double) calls);
		System.out.println("    per call: " + ran.perUnit(calls));
	}

}
