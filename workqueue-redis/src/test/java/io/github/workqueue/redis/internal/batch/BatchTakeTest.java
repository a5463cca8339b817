package io.github.workqueue.redis.internal.batch;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.stream.Collectors;

import io.lettuce.core.ScriptOutputType;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import io.github.workqueue.redis.TestRedis;

import io.github.workqueue.redis.internal.link.RedisLink;
import io.github.workqueue.redis.internal.link.Script;

import io.github.workqueue.redis.internal.shared.QueueKeys;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Takes of several items in one run of {@code batch.lua}, which a queue asks for when
 * several of an instance's threads wait in {@code get} at once: a moment the public API
 * cannot pin down, so these tests call the script as the batcher does, on a real Redis.
 * Several takes in one call follow the same order as one take per call: round-robin over
 * fairness keys item by item, highest priority first, several items of a priority without
 * keys at once and then the next priority. A call whose takes take every item that became
 * ready in it, while no other was ready, orders them without queueing them in Redis: the
 * same order as the trees give.
 */
class BatchTakeTest {

	/**
	 * Holder, lease (microseconds), most expiries (none), ended lease memory
	 * (microseconds), the sender.
	 */
	private static final String[] FIXED_ARGS = { "test-holder", "30000000", "-1", "60000000", "test-sender" };

	/**
	 * The number of the last part run: each run gets the next, as a sender's parts do.
	 */
	private long lastPartNumber;

	/** The time of a scenario's first call, in microseconds. */
	private static final long START_MICROS = 1_000_000_000_000L;

	private final RedisLink link = RedisLink.standalone(TestRedis.client());

	private String[] keys = newQueue();

	/** The keys of a queue no test used yet. */
	private static String[] newQueue() {
		return new QueueKeys(TestRedis.uniqueName("batch-take")).scriptKeys();
	}

	@AfterEach
	void close() {
		this.link.close();
	}

	@Test
	void severalTakesInOneCallShouldGoRoundRobinOverTheKeys() {
		addWithOptions("a/1", 0, "a", "a/2", 0, "a", "a/3", 0, "a", "b/1", 0, "b", "c/1", 0, "c", "b/2", 0, "b");
		assertThat(take(4)).containsExactly("a/1", "b/1", "c/1", "a/2");
		assertThat(take(3)).containsExactly("b/2", "a/3");
	}

	@Test
	void severalTakesInOneCallShouldEmptyAPriorityThenGoOnToTheNext() {
		addWithOptions("x", 1, "", "y", 1, "", "z", 0, "", "v", 1, "", "w", 2, "");
		assertThat(take(3)).containsExactly("w", "x", "y");
		assertThat(take(3)).containsExactly("v", "z");
	}

	@Test
	void oneCallShouldTakeDownManyPrioritiesWithTheLevelsItsOwnAddsMade() {
		List<Object> adds = new ArrayList<>();
		for (int priority = 0; priority < 20; priority++) {
			adds.addAll(List.of("p" + priority, priority, ""));
		}
		addWithOptions(adds.toArray());
		// The call that takes adds first: a level above the twenty, one below them, and
		// an item at a level that has one. Each item leaves with its own priority.
		List<BatchRequest.Add> more = adds("top", 25, "", "below", -1, "", "second-at-2", 2, "");
		List<Lease> expected = new ArrayList<>(List.of(new Lease("top", 25)));
		for (int priority = 19; priority >= 0; priority--) {
			expected.add(new Lease("p" + priority, priority));
			if (priority == 2) {
				expected.add(new Lease("second-at-2", 2));
			}
		}
		expected.add(new Lease("below", -1));
		assertThat(addAndTake(more, expected.size() + 1)).containsExactlyElementsOf(expected);
		assertThat(take(1)).isEmpty();
	}

	@Test
	void takesInTheCallThatMadeItemsReadyShouldGoRoundRobinLevelByLevel() {
		Object[] triples = { "x", 0, "", "a1", 0, "a", "a2", 0, "a", "ax1", 0, "a/x", "b1", 0, "b", "a3", 0, "a", "hi",
				1, "b" };
		// The root's own item came before its keys, as did a's before its key x.
		List<String> expected = List.of("hi", "x", "a1", "b1", "ax1", "a2", "a3");
		assertThat(addAndTake(adds(triples), 7)).extracting(Lease::item).containsExactlyElementsOf(expected);
		this.keys = newQueue();
		addWithOptions(triples);
		assertThat(take(7)).as("from the trees").containsExactlyElementsOf(expected);
	}

	@Test
	void aLeaseThatExpiresInTheCallThatMadeItemsReadyShouldGoBackAheadOfThem() {
		String start = Long.toString(START_MICROS);
		String expired = Long.toString(START_MICROS + 40_000_000);
		List<BatchRequest.Add> adds = adds("new-a", 0, "a", "new-b", 0, "b");
		// A take of all three in the call that adds the two new items...
		run(new ShardBatch(0, adds("old-a", 0, "a"), List.of(), 1), start);
		List<Lease> oneCall = leases(run(new ShardBatch(0, adds, List.of(), 3), expired), adds.size());
		// ...and the same from the trees: the old item is the first of a's, a is served
		// first.
		this.keys = newQueue();
		run(new ShardBatch(0, adds("old-a", 0, "a"), List.of(), 1), start);
		run(new ShardBatch(0, adds, List.of(), 0), expired);
		List<Lease> fromTrees = leases(run(new ShardBatch(0, List.of(), List.of(), 3), expired), 0);
		assertThat(oneCall).extracting(Lease::item).containsExactly("old-a", "new-b", "new-a");
		assertThat(fromTrees).isEqualTo(oneCall);
	}

	/**
	 * Random calls on two queues: the same adds, dones and takes, in one call on the
	 * first queue (where the takes can take what the adds and dones made ready without
	 * queueing it) and split in two on the second (adds and dones, then the takes, from
	 * the trees); then every item left is taken from both. The leases must be the same
	 * items, in the same order, at the same priorities.
	 */
	@Test
	void takesInTheCallThatMadeItemsReadyShouldServeThemAsTheTreesDo() {
		Random seeds = new Random(21);
		for (int round = 0; round < 500; round++) {
			long seed = seeds.nextLong();
			Scenario scenario = Scenario.random(new Random(seed));
			assertThat(play(scenario, true)).as("seed %d: %s", seed, scenario).isEqualTo(play(scenario, false));
		}
	}

	/**
	 * Plays a scenario on a new queue: the second call's leases, then those of a last.
	 */
	private List<List<Lease>> play(Scenario scenario, boolean oneCall) {
		this.keys = newQueue();
		// The calls' times, in microseconds: when the second expires the first's leases,
		// their items go back to the head before its takes.
		long second = START_MICROS + (scenario.expire ? 40_000_000 : 1_000_000);
		String last = Long.toString(second + 1_000_000);
		List<Object> first = run(new ShardBatch(0, scenario.firstAdds, List.of(), scenario.firstTakes),
				Long.toString(START_MICROS));
		Map<String, Long> tokens = tokens(first, scenario.firstAdds.size());
		List<BatchRequest.Done> dones = scenario.dones.stream()
			.filter(tokens::containsKey)
			.map((item) -> done(item, tokens.get(item)))
			.toList();
		List<Lease> taken;
		if (oneCall) {
			taken = leases(run(new ShardBatch(0, scenario.adds, dones, scenario.takes), Long.toString(second)),
					scenario.adds.size() + dones.size());
		}
		else {
			run(new ShardBatch(0, scenario.adds, dones, 0), Long.toString(second));
			taken = leases(run(new ShardBatch(0, List.of(), List.of(), scenario.takes), Long.toString(second)), 0);
		}
		return List.of(taken, leases(run(new ShardBatch(0, List.of(), List.of(), 100), last), 0));
	}

	private static BatchRequest.Done done(String item, long token) {
		return new BatchRequest.Done(0, item, token, Thread.currentThread(), 0, Thread.currentThread(), (outcome) -> {
		});
	}

	/**
	 * A first call's adds and takes (leaving items in flight, and maybe some ready), then
	 * a second call's adds (plain, or with a priority and zero to two fairness keys; some
	 * of the same items, some of those in flight), dones of items in flight, and takes;
	 * the second call may come after the first's leases expired.
	 */
	private record Scenario(List<BatchRequest.Add> firstAdds, int firstTakes, List<BatchRequest.Add> adds,
			List<String> dones, int takes, boolean expire) {

		private static final String[] ITEMS = { "i0", "i1", "i2", "i3", "i4", "i5", "i6", "i7", "i8" };

		static Scenario random(Random random) {
			List<BatchRequest.Add> firstAdds = adds(random, random.nextInt(5));
			List<BatchRequest.Add> adds = adds(random, 1 + random.nextInt(12));
			List<String> dones = new ArrayList<>();
			for (String item : ITEMS) {
				if (random.nextBoolean()) {
					dones.add(item);
				}
			}
			// Half the first calls take all they add, so that nothing is ready before the
			// second; half its takes are as many as its adds, or more.
			int firstTakes = random.nextBoolean() ? firstAdds.size() : random.nextInt(firstAdds.size() + 1);
			return new Scenario(firstAdds, firstTakes, adds, dones, Math.max(0, adds.size() - 4 + random.nextInt(8)),
					random.nextInt(4) == 0);
		}

		private static List<BatchRequest.Add> adds(Random random, int count) {
			List<BatchRequest.Add> adds = new ArrayList<>();
			for (int i = 0; i < count; i++) {
				String item = ITEMS[random.nextInt(ITEMS.length)];
				if (random.nextInt(4) == 0) {
					adds.add(new BatchRequest.Add(0, item));
					continue;
				}
				List<String> path = new ArrayList<>();
				for (int depth = random.nextInt(3); depth > 0; depth--) {
					path.add("k" + random.nextInt(2));
				}
				String keys = path.isEmpty() ? ""
						: path.stream().map((key) -> '"' + key + '"').collect(Collectors.joining(",", "[", "]"));
				// Mostly at 0, so that items meet in one tree.
				int priority = (random.nextInt(3) == 0) ? random.nextInt(3) - 1 : 0;
				adds.add(new BatchRequest.Add(0, item, Integer.toString(priority), keys));
			}
			return adds;
		}

		@Override
		public String toString() {
			return "first " + describe(this.firstAdds) + " take " + this.firstTakes + ", then " + describe(this.adds)
					+ " done " + this.dones + " take " + this.takes + (this.expire ? " after the leases expired" : "");
		}

		private static String describe(List<BatchRequest.Add> adds) {
			return adds.stream()
				.map((add) -> add.encoded + (add.isPlain() ? "" : "@" + add.priority + add.keys))
				.collect(Collectors.joining(" ", "[", "]"));
		}

	}

	/**
	 * Adds with a priority and fairness keys ('/'-separated, or none when empty), in one
	 * call.
	 * @param triples item, priority and fairness keys, for each add
	 */
	private void addWithOptions(Object... triples) {
		run(new ShardBatch(0, adds(triples), List.of(), 0));
	}

	private static List<BatchRequest.Add> adds(Object... triples) {
		List<BatchRequest.Add> adds = new ArrayList<>();
		for (int i = 0; i < triples.length; i += 3) {
			String key = (String) triples[i + 2];
			adds.add(new BatchRequest.Add(0, (String) triples[i], triples[i + 1].toString(),
					key.isEmpty() ? "" : "[\"" + key.replace("/", "\",\"") + "\"]"));
		}
		return adds;
	}

	/** Asks for leases on up to count items in one call; returns the items granted. */
	private List<String> take(int count) {
		return addAndTake(List.of(), count).stream().map(Lease::item).toList();
	}

	/**
	 * Adds, then asks for leases on up to count items, in one call; returns the leases.
	 */
	private List<Lease> addAndTake(List<BatchRequest.Add> adds, int count) {
		return leases(run(new ShardBatch(0, adds, List.of(), count)), adds.size());
	}

	/**
	 * Reads the leases of a call's reply: the time to the next event, one result per add
	 * and done, then five values per lease: item, token, deadline, time queued, priority.
	 * @param reply the reply
	 * @param results how many adds and dones the call had
	 */
	private static List<Lease> leases(List<Object> reply, int results) {
		List<Lease> taken = new ArrayList<>();
		for (int at = 1 + results; at < reply.size(); at += 5) {
			taken.add(new Lease((String) reply.get(at), (Long) reply.get(at + 4)));
		}
		return taken;
	}

	/** The fencing token of each lease of a call's reply, by item; as {@link #leases}. */
	private static Map<String, Long> tokens(List<Object> reply, int results) {
		Map<String, Long> tokens = new HashMap<>();
		for (int at = 1 + results; at < reply.size(); at += 5) {
			tokens.put((String) reply.get(at), (Long) reply.get(at + 1));
		}
		return tokens;
	}

	/** A lease granted by a call, as far as these tests look at it. */
	private record Lease(String item, long priority) {

	}

	/**
	 * Runs the batch as the batcher does: Redis's time, and the queue's fixed arguments.
	 */
	private List<Object> run(ShardBatch batch) {
		return run(batch, "");
	}

	/** Runs the batch at a given time (microseconds), or Redis's when empty. */
	private List<Object> run(ShardBatch batch, String now) {
		return this.link.run(Script.BATCH, ScriptOutputType.MULTI, this.keys,
				batch.args(now, FIXED_ARGS, ++this.lastPartNumber));
	}

}
