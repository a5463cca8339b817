package io.github.workqueue.redis;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Random;

import io.github.workqueue.core.AddOptions;
import io.github.workqueue.core.FairnessKeyExtractor;
import io.github.workqueue.core.FakeClock;
import io.github.workqueue.core.PrioritizedItem;
import io.github.workqueue.core.RateLimitingQueue;
import io.github.workqueue.core.WorkQueue;
import io.github.workqueue.core.WorkQueueBuilder;
import io.github.workqueue.core.ratelimit.ExponentialFailureRateLimiter;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Random sequences of adds (plain, with a priority, delayed, both, rate-limited), gets,
 * dones and clock steps, on queues with or without fairness (a key per tenant), run on
 * the memory queue and on a Redis queue side by side, their time driven by one
 * {@link FakeClock}: the memory queue is the model. After every step both hold as many
 * ready items per priority and as many waiting items, and every get takes the same item
 * at the same priority. A failure names the sequence's seed and its steps.
 * {@code -Dworkqueue.differential.sequences=N} runs more sequences than the build's.
 */
class RedisDifferentialTest {

	private static final int SEQUENCES = Integer.getInteger("workqueue.differential.sequences", 100);

	private static final int STEPS = 40;

	private static final String[] ITEMS = { "a", "b", "c", "d", "e" };

	@Test
	void redisShouldDoWhatTheMemoryQueueDoes() throws InterruptedException {
		Random seeds = new Random(Long.getLong("workqueue.differential.seed", System.nanoTime()));
		for (int sequence = 0; sequence < SEQUENCES; sequence++) {
			run(seeds.nextLong());
		}
	}

	private void run(long seed) throws InterruptedException {
		Random random = new Random(seed);
		int defaultPriority = random.nextInt(4) == 0 ? 3 : 0;
		boolean fair = random.nextInt(3) == 0;
		FakeClock clock = new FakeClock();
		WorkQueueBuilder memoryBuilder = WorkQueue.builder()
			.clock(clock)
			.defaultPriority(defaultPriority)
			.rateLimiter(new ExponentialFailureRateLimiter<>(Duration.ofMillis(100), Duration.ofSeconds(2)));
		RedisQueueBuilder redisBuilder = RedisQueue
			.builder(RedisQueueConnection.of(TestRedis.client()), TestRedis.uniqueName("differential"))
			.timeForTests(clock)
			.defaultPriority(defaultPriority)
			.rateLimiter(new ExponentialFailureRateLimiter<>(Duration.ofMillis(100), Duration.ofSeconds(2)));
		if (fair) {
			FairnessKeyExtractor<String> byTenant = RedisDifferentialTest::tenant;
			memoryBuilder.fairness(byTenant);
			redisBuilder.fairness(byTenant);
		}
		RateLimitingQueue<String> memory = memoryBuilder.buildRateLimiting();
		RateLimitingQueue<String> redis = redisBuilder.build(ItemCodec.strings());
		List<String> steps = new ArrayList<>();
		steps.add("seed " + seed + ", default priority " + defaultPriority + (fair ? ", fairness by tenant" : ""));
		List<String> processing = new ArrayList<>();
		try {
			for (int step = 0; step < STEPS; step++) {
				String item = ITEMS[random.nextInt(ITEMS.length)];
				int priority = random.nextInt(5) - 2;
				Duration delay = Duration.ofMillis(random.nextInt(4) == 0 ? 0 : random.nextInt(3000));
				switch (random.nextInt(11)) {
					case 0 -> {
						steps.add("add(" + item + ")");
						both(memory, redis, (queue) -> queue.add(item));
					}
					case 1 -> {
						steps.add("add(" + item + ", priority " + priority + ")");
						both(memory, redis, (queue) -> queue.add(item, AddOptions.priority(priority)));
					}
					case 2 -> {
						steps.add("addAfter(" + item + ", " + delay.toMillis() + "ms)");
						both(memory, redis, (queue) -> queue.addAfter(item, delay));
					}
					case 3 -> {
						steps.add("add(" + item + ", priority " + priority + ", delay " + delay.toMillis() + "ms)");
						both(memory, redis, (queue) -> queue.add(item, AddOptions.priority(priority).withDelay(delay)));
					}
					case 4 -> {
						steps.add("addRateLimited(" + item + ")");
						both(memory, redis, (queue) -> queue.addRateLimited(item));
					}
					case 5, 6 -> {
						Optional<PrioritizedItem<String>> fromMemory = memory.getWithPriority(Duration.ZERO);
						Optional<PrioritizedItem<String>> fromRedis = redis.getWithPriority(Duration.ZERO);
						steps.add("get() -> " + fromMemory.map(Object::toString).orElse("nothing"));
						assertThat(fromRedis).as(String.join("\n", steps)).isEqualTo(fromMemory);
						fromMemory.ifPresent((taken) -> processing.add(taken.item()));
					}
					case 7 -> {
						if (!processing.isEmpty()) {
							String done = processing.remove(random.nextInt(processing.size()));
							steps.add("done(" + done + ")");
							both(memory, redis, (queue) -> queue.done(done));
						}
					}
					case 8, 9 -> {
						List<String> items = new ArrayList<>();
						for (int count = 1 + random.nextInt(4); items.size() < count;) {
							// Repeats too: the later add of one call joins the earlier.
							items.add(ITEMS[random.nextInt(ITEMS.length)]);
						}
						if (random.nextBoolean()) {
							steps.add("addAll(" + items + ")");
							both(memory, redis, (queue) -> queue.addAll(items));
						}
						else {
							steps.add("addAll(" + items + ", priority " + priority + ")");
							both(memory, redis, (queue) -> queue.addAll(items, AddOptions.priority(priority)));
						}
					}
					default -> {
						steps.add("step(" + delay.toMillis() + "ms)");
						clock.step(delay);
					}
				}
				String so = String.join("\n", steps);
				assertThat(redis.lenByPriority()).as(so).isEqualTo(memory.lenByPriority());
				assertThat(redis.len()).as(so).isEqualTo(memory.len());
				assertThat(redis.waitingLen()).as(so).isEqualTo(memory.waitingLen());
				assertThat(redis.lenByFairnessKey()).as(so).isEqualTo(memory.lenByFairnessKey());
			}
		}
		finally {
			memory.shutDown();
			redis.shutDown();
		}
	}

	/** The fairness key of an item: a and b are tenant x's, c and d y's, e z's. */
	private static List<String> tenant(String item) {
		return List.of(switch (item) {
			case "a", "b" -> "x";
			case "c", "d" -> "y";
			default -> "z";
		});
	}

	private static void both(RateLimitingQueue<String> memory, RateLimitingQueue<String> redis,
			java.util.function.Consumer<RateLimitingQueue<String>> operation) {
		operation.accept(memory);
		operation.accept(redis);
	}

}
