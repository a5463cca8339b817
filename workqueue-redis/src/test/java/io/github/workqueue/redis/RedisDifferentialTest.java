package io.github.workqueue.redis;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Random;
import java.util.SortedMap;
import java.util.TreeMap;
import java.util.function.Consumer;
import java.util.zip.CRC32;

import io.github.workqueue.core.AddOptions;
import io.github.workqueue.core.FairnessKeyExtractor;
import io.github.workqueue.core.FakeClock;
import io.github.workqueue.core.PrioritizedItem;
import io.github.workqueue.core.RateLimitingQueue;
import io.github.workqueue.core.WorkQueue;
import io.github.workqueue.core.WorkQueueBuilder;
import io.github.workqueue.core.ratelimit.ExponentialFailureRateLimiter;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Sequences of adds (plain, with a priority, delayed, both, rate-limited), gets, dones
 * and clock steps, on queues with or without fairness, run on memory queues and on Redis
 * side by side, their time driven by one {@link FakeClock}: the memory queue is the
 * model. Every get takes the same item at the same priority; at the points a sequence
 * checks, both hold as many ready items per priority and fairness key, and as many
 * waiting items. A failure names the sequence's seed and its steps.
 * <p>
 * Three Redis backends: one instance; two instances of one queue, each add and get made
 * on either and each done on the instance that took the item; three shards, modelled by
 * one memory queue per shard (a sharded queue keeps the order within a shard only).
 * <p>
 * The checks are reads, but on Redis they run scripts that promote due waiting items, so
 * a sequence checks only at some of its steps: what happens between a clock step and the
 * next call must be seen by the calls alone (issue 58 was hidden by checks after every
 * step). Two generators: any operation at random, and sequences shaped to re-add items
 * being processed (delayed, rate-limited, optioned) and then bring several due times at
 * once before the dones. {@code -Dworkqueue.differential.sequences=N} runs N sequences of
 * each generator on each backend (the build runs 60).
 */
class RedisDifferentialTest {

	private static final int SEQUENCES = Integer.getInteger("workqueue.differential.sequences", 60);

	private static final int STEPS = 40;

	/**
	 * Items in all three shards of a three-shard queue: a, c, d, e in 0; g in 1; b in 2.
	 */
	private static final String[] ITEMS = { "a", "b", "c", "d", "e", "g" };

	enum Backend {

		ONE_INSTANCE(1, 1), TWO_INSTANCES(2, 1), THREE_SHARDS(1, 3);

		final int instances;

		final int shards;

		Backend(int instances, int shards) {
			this.instances = instances;
			this.shards = shards;
		}

	}

	@ParameterizedTest
	@EnumSource(Backend.class)
	void randomSequencesShouldRunOnRedisAsOnTheMemoryQueue(Backend backend) throws InterruptedException {
		runSequences(backend, "random sequence", (run, random) -> {
			for (int step = 0; step < STEPS; step++) {
				randomStep(run, random);
				if (random.nextBoolean()) {
					run.check();
				}
			}
		});
	}

	@ParameterizedTest
	@EnumSource(Backend.class)
	void reAddsOfItemsBeingProcessedShouldRunOnRedisAsOnTheMemoryQueue(Backend backend) throws InterruptedException {
		runSequences(backend, "re-adds while processing", (run, random) -> {
			for (int round = 1 + random.nextInt(3); round > 0; round--) {
				reAddRound(run, random);
			}
		});
	}

	/** The steps of one sequence, drawn from its own random source. */
	@FunctionalInterface
	private interface Sequence {

		void steps(Run run, Random random) throws InterruptedException;

	}

	/** Runs {@link #SEQUENCES} sequences, each with a seed of its own, then drained. */
	private static void runSequences(Backend backend, String title, Sequence sequence) throws InterruptedException {
		Random seeds = new Random(Long.getLong("workqueue.differential.seed", System.nanoTime()));
		for (int count = 0; count < SEQUENCES; count++) {
			long seed = seeds.nextLong();
			Random random = new Random(seed);
			try (Run run = new Run(backend, random, title + ", seed " + seed)) {
				sequence.steps(run, random);
				run.drain();
			}
		}
	}

	@ParameterizedTest
	@EnumSource(Backend.class)
	void anItemWhoseDelayCameDueWhileProcessingShouldGoBackBehindItemsReadyFirst(Backend backend)
			throws InterruptedException {
		try (Run run = new Run(backend, (FairnessKeyExtractor<String>) null, "issue 58, FIFO")) {
			run.add("e");
			run.addAfter("e", Duration.ofMillis(2999));
			run.get();
			run.addAfter("a", Duration.ofMillis(2999));
			run.step(Duration.ofMillis(3000));
			run.doneAll();
			assertThat(run.get()).as(run.steps()).contains(new PrioritizedItem<>("a", 0));
			run.drain();
		}
	}

	@ParameterizedTest
	@EnumSource(Backend.class)
	void anItemWhoseDelayCameDueWhileProcessingShouldGoBackBehindItemsReadyFirstWithPriorities(Backend backend)
			throws InterruptedException {
		try (Run run = new Run(backend, RedisDifferentialTest::tenantAndNamespace,
				"issue 58, priorities and fairness")) {
			run.add("A.y.2", AddOptions.priority(-1));
			run.get();
			run.addAfter("A.y.2", Duration.ofMillis(1999));
			run.add("C.x.7", AddOptions.priority(0).withDelay(Duration.ofMillis(2999)));
			run.step(Duration.ofMillis(3000));
			run.doneAll();
			assertThat(run.get()).as(run.steps()).contains(new PrioritizedItem<>("C.x.7", 0));
			run.drain();
		}
	}

	/** One operation of any kind, chosen at random. */
	private static void randomStep(Run run, Random random) throws InterruptedException {
		String item = ITEMS[random.nextInt(ITEMS.length)];
		int priority = random.nextInt(5) - 2;
		Duration delay = delay(random);
		switch (random.nextInt(13)) {
			case 0 -> run.add(item);
			case 1 -> run.add(item, AddOptions.priority(priority));
			case 2 -> run.addAfter(item, delay);
			case 3 -> run.add(item, AddOptions.priority(priority).withDelay(delay));
			case 4 -> run.addRateLimited(item);
			case 5, 6 -> run.get();
			case 7 -> run.doneOne();
			case 8 -> run.reAddOneBeingProcessed(random);
			case 9, 10 -> run.addAll(someItems(random), random.nextBoolean() ? null : AddOptions.priority(priority));
			case 11 -> run.step(Duration.ofMillis(3000));
			default -> run.step(delay);
		}
	}

	/**
	 * Items queued and taken, the taken ones re-added with delays (and other items
	 * delayed beside them), the clock stepped past several due times at once, then the
	 * dones in a random order among gets: no check between the step and the calls that
	 * follow it.
	 */
	private static void reAddRound(Run run, Random random) throws InterruptedException {
		for (int adds = 1 + random.nextInt(4); adds > 0; adds--) {
			String item = ITEMS[random.nextInt(ITEMS.length)];
			switch (random.nextInt(3)) {
				case 0 -> run.add(item);
				case 1 -> run.add(item, AddOptions.priority(random.nextInt(5) - 2));
				default -> run.addAll(someItems(random), null);
			}
		}
		for (int gets = 1 + random.nextInt(3); gets > 0; gets--) {
			run.get();
		}
		for (int reAdds = 1 + random.nextInt(4); reAdds > 0; reAdds--) {
			if (random.nextInt(3) == 0) {
				run.addAfter(ITEMS[random.nextInt(ITEMS.length)], delay(random));
			}
			else {
				run.reAddOneBeingProcessed(random);
			}
		}
		if (random.nextInt(4) == 0) {
			run.check();
		}
		run.step(Duration.ofMillis(random.nextInt(3) == 0 ? 1000 + random.nextInt(2000) : 3000));
		while (run.doneOne()) {
			if (random.nextInt(3) == 0) {
				run.get();
			}
		}
		if (random.nextBoolean()) {
			run.check();
		}
	}

	/**
	 * A delay of 0 (an add) a quarter of the time, else up to 3 s, often a whole second.
	 */
	private static Duration delay(Random random) {
		return switch (random.nextInt(4)) {
			case 0 -> Duration.ZERO;
			case 1 -> Duration.ofSeconds(1 + random.nextInt(2));
			default -> Duration.ofMillis(1 + random.nextInt(2999));
		};
	}

	/**
	 * One to four items, repeats included: the later add of one call joins the earlier.
	 */
	private static List<String> someItems(Random random) {
		List<String> items = new ArrayList<>();
		for (int count = 1 + random.nextInt(4); items.size() < count;) {
			items.add(ITEMS[random.nextInt(ITEMS.length)]);
		}
		return items;
	}

	/** The fairness keys of an item: a and b are tenant x's, c and d y's, others z's. */
	private static List<String> tenant(String item) {
		return List.of(switch (item) {
			case "a", "b" -> "x";
			case "c", "d" -> "y";
			default -> "z";
		});
	}

	/**
	 * The fairness keys of an item named as tenant.namespace.number: its first two parts.
	 */
	private static List<String> tenantAndNamespace(String item) {
		String[] parts = item.split("\\.");
		return List.of(parts[0], parts[1]);
	}

	/**
	 * One sequence: the memory queues (one per shard), the Redis instances, the items
	 * taken and by which instance, and the steps so far.
	 */
	private static final class Run implements AutoCloseable {

		private final FakeClock clock = new FakeClock();

		private final List<RateLimitingQueue<String>> model = new ArrayList<>();

		private final List<RedisQueue<String>> instances = new ArrayList<>();

		/**
		 * The items being processed, in the order taken, with the instance that took
		 * each.
		 */
		private final Map<String, RedisQueue<String>> processing = new LinkedHashMap<>();

		private final List<String> steps = new ArrayList<>();

		private final Random random;

		/**
		 * A sequence whose default priority, fairness, instances and dones are chosen at
		 * random.
		 */
		Run(Backend backend, Random random, String title) {
			this(backend, random, (random.nextInt(3) == 0) ? RedisDifferentialTest::tenant : null,
					(random.nextInt(4) == 0) ? 3 : 0, title);
		}

		/**
		 * A sequence of fixed steps: on the first instance, dones in the order taken.
		 */
		Run(Backend backend, FairnessKeyExtractor<String> keys, String title) {
			this(backend, null, keys, 0, title);
		}

		private Run(Backend backend, Random random, FairnessKeyExtractor<String> keys, int defaultPriority,
				String title) {
			this.random = random;
			this.steps.add(title + " on " + backend + ", default priority " + defaultPriority
					+ ((keys != null) ? ", fairness" : ""));
			for (int shard = 0; shard < backend.shards; shard++) {
				WorkQueueBuilder builder = WorkQueue.builder()
					.clock(this.clock)
					.defaultPriority(defaultPriority)
					.rateLimiter(new ExponentialFailureRateLimiter<>(Duration.ofMillis(100), Duration.ofSeconds(2)));
				if (keys != null) {
					builder.fairness(keys);
				}
				this.model.add(builder.buildRateLimiting());
			}
			String name = TestRedis.uniqueName("differential");
			for (int instance = 0; instance < backend.instances; instance++) {
				RedisQueueBuilder builder = RedisQueue.builder(RedisQueueConnection.of(TestRedis.client()), name)
					.timeForTests(this.clock)
					// Far beyond the fake time a sequence steps: an item held across many
					// steps must not be redelivered, which the memory queue never does.
					.leaseDuration(Duration.ofHours(1))
					// The memory queue's order is exact; leasing ahead may serve a later,
					// higher item late by its bound (PrefetchTest checks that bound).
					.prefetch(0)
					.shards(backend.shards)
					.defaultPriority(defaultPriority)
					.rateLimiter(new ExponentialFailureRateLimiter<>(Duration.ofMillis(100), Duration.ofSeconds(2)));
				if (keys != null) {
					builder.fairness(keys);
				}
				this.instances.add(builder.build(ItemCodec.strings()));
			}
		}

		void add(String item) {
			apply("add(" + item + ")", item, (queue) -> queue.add(item));
		}

		void add(String item, AddOptions options) {
			apply("add(" + item + ", " + options + ")", item, (queue) -> queue.add(item, options));
		}

		void addAfter(String item, Duration delay) {
			apply("addAfter(" + item + ", " + delay.toMillis() + "ms)", item, (queue) -> queue.addAfter(item, delay));
		}

		void addRateLimited(String item) {
			apply("addRateLimited(" + item + ")", item, (queue) -> queue.addRateLimited(item));
		}

		/**
		 * An add of all items in one call: on the model, each shard's items in their
		 * order.
		 */
		void addAll(List<String> items, AddOptions options) {
			this.steps.add("addAll(" + items + ((options != null) ? ", " + options : "") + ")");
			Map<Integer, List<String>> byShard = new TreeMap<>();
			for (String item : items) {
				byShard.computeIfAbsent(shardOf(item), (shard) -> new ArrayList<>()).add(item);
			}
			byShard.forEach((shard, ofShard) -> addAll(this.model.get(shard), ofShard, options));
			addAll(anyInstance(), items, options);
		}

		/**
		 * A delayed, rate-limited or optioned re-add of an item being processed, if any.
		 */
		void reAddOneBeingProcessed(Random random) {
			if (this.processing.isEmpty()) {
				return;
			}
			List<String> taken = new ArrayList<>(this.processing.keySet());
			String item = taken.get(random.nextInt(taken.size()));
			switch (random.nextInt(4)) {
				case 0 -> addRateLimited(item);
				case 1 -> add(item, AddOptions.priority(random.nextInt(5) - 2).withDelay(delay(random)));
				default -> addAfter(item, delay(random));
			}
		}

		/** A get on one instance: the model of the item's shard must give the same. */
		Optional<PrioritizedItem<String>> get() throws InterruptedException {
			RedisQueue<String> instance = anyInstance();
			Optional<PrioritizedItem<String>> fromRedis = instance.getWithPriority(Duration.ZERO);
			this.steps.add("get() on instance " + this.instances.indexOf(instance) + " -> "
					+ fromRedis.map(Object::toString).orElse("nothing"));
			if (fromRedis.isPresent()) {
				String item = fromRedis.get().item();
				assertThat(fromRedis).as(steps())
					.isEqualTo(this.model.get(shardOf(item)).getWithPriority(Duration.ZERO));
				this.processing.put(item, instance);
			}
			else {
				for (RateLimitingQueue<String> shard : this.model) {
					assertThat(shard.getWithPriority(Duration.ZERO)).as(steps()).isEmpty();
				}
			}
			return fromRedis;
		}

		/** A done of one item being processed, if any: true if there was one. */
		boolean doneOne() {
			if (this.processing.isEmpty()) {
				return false;
			}
			List<String> taken = new ArrayList<>(this.processing.keySet());
			String item = taken.get((this.random != null) ? this.random.nextInt(taken.size()) : 0);
			this.steps.add("done(" + item + ")");
			this.model.get(shardOf(item)).done(item);
			this.processing.remove(item).done(item);
			return true;
		}

		void doneAll() {
			while (doneOne()) {
				// each in turn
			}
		}

		void step(Duration by) {
			this.steps.add("step(" + by.toMillis() + "ms)");
			this.clock.step(by);
		}

		/**
		 * Both sides hold as many ready items by priority and fairness key, and waiting.
		 */
		void check() {
			String so = steps();
			assertThat(sum(RateLimitingQueue::lenByPriority, List.of(this.instances.get(0)))).as(so)
				.isEqualTo(sum(RateLimitingQueue::lenByPriority, this.model));
			assertThat(this.instances.get(0).len()).as(so).isEqualTo(total(WorkQueue::len));
			assertThat(this.instances.get(0).waitingLen()).as(so).isEqualTo(total((queue) -> queue.waitingLen()));
			assertThat(sum(RateLimitingQueue::lenByFairnessKey, List.of(this.instances.get(0)))).as(so)
				.isEqualTo(sum(RateLimitingQueue::lenByFairnessKey, this.model));
		}

		/**
		 * Ends the sequence: the waiting items come due, and every item is taken and done
		 * until both sides are empty, checked on the way.
		 */
		void drain() throws InterruptedException {
			doneAll();
			check();
			step(Duration.ofSeconds(10));
			while (get().isPresent()) {
				doneAll();
			}
			check();
			assertThat(total(WorkQueue::len) + total((queue) -> queue.waitingLen())).as(steps()).isZero();
		}

		String steps() {
			return String.join("\n", this.steps);
		}

		@Override
		public void close() {
			this.model.forEach(WorkQueue::shutDown);
			this.instances.forEach(WorkQueue::shutDown);
		}

		private void apply(String step, String item, Consumer<RateLimitingQueue<String>> operation) {
			this.steps.add(step);
			operation.accept(this.model.get(shardOf(item)));
			operation.accept(anyInstance());
		}

		private RedisQueue<String> anyInstance() {
			return this.instances.get((this.random != null) ? this.random.nextInt(this.instances.size()) : 0);
		}

		/**
		 * The shard of an item, as every instance computes it: CRC-32 of its UTF-8 form.
		 */
		private int shardOf(String item) {
			if (this.model.size() == 1) {
				return 0;
			}
			CRC32 crc = new CRC32();
			crc.update(item.getBytes(StandardCharsets.UTF_8));
			return (int) (crc.getValue() % this.model.size());
		}

		private int total(java.util.function.ToIntFunction<RateLimitingQueue<String>> count) {
			return this.model.stream().mapToInt(count).sum();
		}

		/** The counts of the queues (a Redis instance, or the model's shards), summed. */
		private static <K extends Comparable<K>> SortedMap<K, Integer> sum(
				java.util.function.Function<RateLimitingQueue<String>, Map<K, Integer>> counts,
				List<? extends RateLimitingQueue<String>> queues) {
			SortedMap<K, Integer> sums = new TreeMap<>();
			for (RateLimitingQueue<String> queue : queues) {
				counts.apply(queue).forEach((key, count) -> sums.merge(key, count, Integer::sum));
			}
			sums.values().removeIf((count) -> count == 0);
			return sums;
		}

		private static void addAll(RateLimitingQueue<String> queue, List<String> items, AddOptions options) {
			if (options != null) {
				queue.addAll(items, options);
			}
			else {
				queue.addAll(items);
			}
		}

	}

}
