package io.github.workqueue.redis;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import io.github.workqueue.core.AddOptions;
import io.github.workqueue.core.FairnessKeyExtractor;
import io.github.workqueue.core.FakeClock;
import io.github.workqueue.core.PrioritizedItem;
import io.github.workqueue.core.RateLimitingQueue;
import io.github.workqueue.core.WorkQueue;
import io.github.workqueue.core.ratelimit.ExponentialFailureRateLimiter;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.Parameter;
import org.junit.jupiter.params.ParameterizedClass;
import org.junit.jupiter.params.provider.ValueSource;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * DESIGN.md's "Priority and fairness", run against both backends as
 * {@link QueueContractTest} runs the core contract: one rule per test. A queue of several
 * shards orders by priority and fairness within a shard only, so its order checks compare
 * what came out, in any order.
 */
@ParameterizedClass(name = "{0}")
@ValueSource(strings = { "memory", "redis", "redis-cluster", "redis-sharded", "redis-cluster-sharded" })
class PriorityContractTest {

	private static final Duration NOW = Duration.ZERO;

	@Parameter
	String backend;

	private final FakeClock clock = new FakeClock();

	private final List<RateLimitingQueue<String>> queues = new ArrayList<>();

	@AfterEach
	void shutDown() {
		this.queues.forEach(WorkQueue::shutDown);
	}

	private RateLimitingQueue<String> queue(@Nullable FairnessKeyExtractor<String> fairness) {
		return queue(fairness, 0);
	}

	private RateLimitingQueue<String> queue(@Nullable FairnessKeyExtractor<String> fairness, int defaultPriority) {
		RateLimitingQueue<String> queue = ContractQueues.create(this.backend, this.clock,
				new ExponentialFailureRateLimiter<>(Duration.ofMillis(1), Duration.ofSeconds(1)), fairness,
				defaultPriority, "priority");
		this.queues.add(queue);
		return queue;
	}

	private RateLimitingQueue<String> queue() {
		return queue(null);
	}

	/**
	 * A queue whose items' fairness keys are every '/'-separated segment but the last.
	 */
	private RateLimitingQueue<String> queueKeyedByPath() {
		return queue((item) -> List.of(item.split("/")).subList(0, item.split("/").length - 1));
	}

	private void assertTakenInOrder(RateLimitingQueue<String> queue, String... expected) throws InterruptedException {
		List<String> taken = new ArrayList<>();
		for (int i = 0; i < expected.length; i++) {
			PrioritizedItem<String> item = take(queue);
			taken.add(item.item());
			queue.done(item.item());
		}
		if (ContractQueues.isSharded(this.backend)) {
			assertThat(taken).containsExactlyInAnyOrder(expected);
		}
		else {
			assertThat(taken).containsExactly(expected);
		}
		assertThat(queue.get(NOW)).isEmpty();
	}

	private static PrioritizedItem<String> take(RateLimitingQueue<String> queue) throws InterruptedException {
		Optional<PrioritizedItem<String>> item = queue.getWithPriority(Duration.ofSeconds(5));
		assertThat(item).as("an item is ready").isPresent();
		return item.get();
	}

	@Test
	void higherPrioritiesShouldLeaveFirstThenInTheOrderTheyBecameReady() throws InterruptedException {
		RateLimitingQueue<String> queue = queue();
		queue.add("a");
		queue.add("b", AddOptions.priority(5));
		queue.add("c", AddOptions.priority(-1));
		queue.add("d", AddOptions.priority(5));
		assertThat(queue.len()).isEqualTo(4);
		assertThat(queue.lenByFairnessKey()).as("no fairness").isEmpty();
		assertThat(queue.lenByPriority()).containsExactly(Map.entry(5, 2), Map.entry(0, 1), Map.entry(-1, 1));
		assertTakenInOrder(queue, "b", "d", "a", "c");
	}

	@Test
	void removeShouldTakeAnItemOutOfItsPriorityAndFairnessTurn() throws InterruptedException {
		RateLimitingQueue<String> queue = queueKeyedByPath();
		queue.add("t1/a");
		queue.add("t1/b");
		queue.add("t2/c");
		queue.add("t3/d", AddOptions.priority(5));
		queue.add("t3/e", AddOptions.priority(5));
		assertThat(queue.remove("t2/c")).isTrue();
		assertThat(queue.remove("t3/d")).isTrue();
		assertThat(queue.len()).isEqualTo(3);
		assertThat(queue.lenByPriority()).containsExactly(Map.entry(5, 1), Map.entry(0, 2));
		assertThat(queue.lenByFairnessKey()).containsOnly(Map.entry("t1", 2), Map.entry("t3", 1));
		assertTakenInOrder(queue, "t3/e", "t1/a", "t1/b");
	}

	@Test
	void removeShouldTakeAnItemOutOfSeveralPrioritiesWithoutFairness() throws InterruptedException {
		RateLimitingQueue<String> queue = queue();
		queue.add("a");
		queue.add("b", AddOptions.priority(5));
		queue.add("c");
		assertThat(queue.remove("a")).isTrue();
		assertThat(queue.remove("b")).isTrue();
		assertThat(queue.lenByPriority()).containsExactly(Map.entry(0, 1));
		assertTakenInOrder(queue, "c");
		queue.add("b");
		assertThat(take(queue).priority()).as("a removed item forgets its priority").isZero();
	}

	@Test
	void aRaisedItemShouldKeepTheMomentItBecameReady() throws InterruptedException {
		RateLimitingQueue<String> queue = queue();
		queue.add("a");
		queue.add("b");
		queue.add("c", AddOptions.priority(5));
		queue.add("a", AddOptions.priority(5));
		assertThat(queue.len()).as("a raise is not a second item").isEqualTo(3);
		assertTakenInOrder(queue, "a", "c", "b");
	}

	@Test
	void anAddShouldNeverLowerAPriority() throws InterruptedException {
		RateLimitingQueue<String> queue = queue();
		queue.add("a", AddOptions.priority(5));
		queue.add("a", AddOptions.priority(1));
		queue.add("a");
		queue.add("b", AddOptions.priority(3));
		PrioritizedItem<String> first = take(queue);
		assertThat(first).isEqualTo(new PrioritizedItem<>("a", 5));
	}

	@Test
	void aPlainAddShouldRaiseALowPriorityItemToTheDefault() throws InterruptedException {
		RateLimitingQueue<String> queue = queue();
		queue.add("a", AddOptions.priority(-5));
		queue.add("b");
		queue.add("a");
		assertThat(take(queue)).isEqualTo(new PrioritizedItem<>("a", 0));
	}

	@Test
	void aPlainAddShouldRaiseAWaitingItemToTheDefault() throws InterruptedException {
		RateLimitingQueue<String> queue = queue();
		queue.add("d", AddOptions.priority(-1).withDelay(Duration.ofMillis(1999)));
		queue.add("d");
		assertThat(take(queue)).isEqualTo(new PrioritizedItem<>("d", 0));
	}

	@Test
	void anAddAtTheDefaultShouldRaiseAWaitingItemThatBecameReadyFirst() throws InterruptedException {
		RateLimitingQueue<String> queue = queue();
		queue.add("d", AddOptions.priority(-1).withDelay(Duration.ofMillis(4999)));
		queue.add("d", AddOptions.priority(0));
		queue.add("i");
		assertTakenInOrder(queue, "d", "i");
	}

	@Test
	void aDelayedPlainAddShouldRaiseAQueuedItemToTheDefault() throws InterruptedException {
		RateLimitingQueue<String> queue = queue();
		queue.add("e", AddOptions.priority(-1));
		queue.addAfter("e", Duration.ofMillis(4999));
		assertThat(queue.lenByPriority()).containsExactly(Map.entry(0, 1));
		assertThat(take(queue)).isEqualTo(new PrioritizedItem<>("e", 0));
	}

	@Test
	void aRateLimitedAddShouldRaiseAQueuedItemToTheDefault() throws InterruptedException {
		RateLimitingQueue<String> queue = queue();
		queue.add("x", AddOptions.priority(-1));
		queue.addRateLimited("x");
		assertThat(queue.lenByPriority()).containsExactly(Map.entry(0, 1));
		assertThat(take(queue)).isEqualTo(new PrioritizedItem<>("x", 0));
	}

	@Test
	void anAddAtPriorityZeroShouldRaiseAWaitingItemUnderAnotherDefault() throws InterruptedException {
		RateLimitingQueue<String> queue = queue(null, 3);
		queue.add("x", AddOptions.priority(-1).withDelay(Duration.ofMillis(1999)));
		queue.add("x", AddOptions.priority(0));
		assertThat(take(queue)).isEqualTo(new PrioritizedItem<>("x", 0));
	}

	@Test
	void aRequeueShouldKeepThePriorityAndADoneWithNothingPendingForgetIt() throws InterruptedException {
		RateLimitingQueue<String> queue = queue();
		queue.add("a", AddOptions.priority(7));
		assertThat(take(queue)).isEqualTo(new PrioritizedItem<>("a", 7));
		queue.add("a");
		queue.done("a");
		assertThat(take(queue)).as("requeued while processing: keeps 7").isEqualTo(new PrioritizedItem<>("a", 7));
		queue.done("a");
		queue.add("a");
		assertThat(take(queue)).as("a new add after done: the default").isEqualTo(new PrioritizedItem<>("a", 0));
	}

	@Test
	void aDelayedAddShouldCarryItsPriorityAndRaiseAWaitingItem() throws InterruptedException {
		RateLimitingQueue<String> queue = queue();
		queue.addAfter("a", Duration.ofSeconds(1));
		queue.add("a", AddOptions.priority(4).withDelay(Duration.ofSeconds(2)));
		queue.add("b");
		assertThat(queue.waitingLen()).as("one waiting entry, the earliest time").isEqualTo(1);
		assertThat(take(queue).item()).isEqualTo("b");
		this.clock.step(Duration.ofSeconds(1));
		queue.add("c");
		PrioritizedItem<String> next = take(queue);
		assertThat(next).as("ready after 1s, at the raised priority").isEqualTo(new PrioritizedItem<>("a", 4));
	}

	@Test
	void aRateLimitedAddWithADelayShouldWaitTheShorterOfTheTwo() throws InterruptedException {
		RateLimitingQueue<String> queue = queue();
		queue.add("a", AddOptions.rateLimited().withDelay(Duration.ofHours(1)).withPriority(2));
		assertThat(queue.numRequeues("a")).isEqualTo(1);
		assertThat(queue.get(NOW)).isEmpty();
		this.clock.step(Duration.ofMillis(1));
		assertThat(take(queue)).isEqualTo(new PrioritizedItem<>("a", 2));
	}

	@Test
	void fairnessShouldServeKeysRoundRobin() throws InterruptedException {
		RateLimitingQueue<String> queue = queue((item) -> List.of(item.substring(0, item.indexOf('/'))));
		for (int i = 1; i <= 5; i++) {
			queue.add("big/" + i);
		}
		queue.add("small/1");
		queue.add("other/1");
		queue.add("small/2");
		assertThat(queue.lenByFairnessKey()).containsOnly(Map.entry("big", 5), Map.entry("small", 2),
				Map.entry("other", 1));
		assertTakenInOrder(queue, "big/1", "small/1", "other/1", "big/2", "small/2", "big/3", "big/4", "big/5");
	}

	@Test
	void fairnessShouldGoRoundRobinLevelByLevel() throws InterruptedException {
		RateLimitingQueue<String> queue = queue((item) -> List.of(item.split("/")[0], item.split("/")[1]));
		queue.add("a/x/1");
		queue.add("a/x/2");
		queue.add("a/y/1");
		queue.add("b/z/1");
		assertThat(queue.lenByFairnessKey()).containsOnly(Map.entry("a", 3), Map.entry("b", 1));
		assertTakenInOrder(queue, "a/x/1", "b/z/1", "a/y/1", "a/x/2");
	}

	@Test
	void itemsWithFewerKeysShouldBeAGroupBesideTheirSiblingKeys() throws InterruptedException {
		// "4" has no key, "a/2" one, "a/x/1" two.
		RateLimitingQueue<String> queue = queueKeyedByPath();
		queue.add("a/x/1");
		queue.add("a/2");
		queue.add("a/x/3");
		queue.add("b/1");
		queue.add("4");
		queue.add("a/5");
		assertThat(queue.lenByFairnessKey()).containsOnly(Map.entry("a", 4), Map.entry("b", 1));
		// Top level: a, b, then the keyless group; under a: x, then a's own items.
		assertTakenInOrder(queue, "a/x/1", "b/1", "4", "a/2", "a/x/3", "a/5");
		// The groups of items with fewer keys arriving first take their turns first.
		for (String item : List.of("4", "a/2", "a/x/1", "a/x/3", "b/1", "a/5")) {
			queue.add(item);
		}
		assertTakenInOrder(queue, "4", "a/2", "b/1", "a/x/1", "a/5", "a/x/3");
	}

	@Test
	void aKeyWhoseOnlyItemIsRaisedShouldLeaveItsPriority() throws InterruptedException {
		RateLimitingQueue<String> queue = queue((item) -> List.of(item.substring(0, item.indexOf('/'))));
		queue.add("a/1");
		queue.add("b/1");
		queue.add("a/1", AddOptions.priority(1));
		List<String> taken = new ArrayList<>();
		for (int i = 0; i < 2; i++) {
			String item = take(queue).item();
			taken.add(item);
			queue.done(item);
			String left = item.equals("a/1") ? "b" : "a";
			assertThat(queue.lenByFairnessKey()).as("after " + taken).isEqualTo((i == 0) ? Map.of(left, 1) : Map.of());
		}
		if (!ContractQueues.isSharded(this.backend)) {
			assertThat(taken).containsExactly("a/1", "b/1");
		}
	}

	@Test
	void raisingTheLastOwnItemOfAKeyWithSubkeysShouldKeepTheRoundRobin() throws InterruptedException {
		// "a/2" is key a's own item, "a/x/1" is under a/x.
		RateLimitingQueue<String> queue = queueKeyedByPath();
		queue.add("a/x/1");
		queue.add("a/2");
		queue.add("a/x/3");
		queue.add("b/1");
		queue.add("b/2");
		queue.add("a/2", AddOptions.priority(1));
		// a's own items are gone from priority 0: a's turn there is x's, every time.
		assertTakenInOrder(queue, "a/2", "a/x/1", "b/1", "a/x/3", "b/2");
	}

	@Test
	void fairnessShouldComeAfterPriority() throws InterruptedException {
		RateLimitingQueue<String> queue = queue((item) -> List.of(item.substring(0, item.indexOf('/'))));
		queue.add("a/1");
		queue.add("a/2");
		queue.add("b/1");
		queue.add("b/2", AddOptions.priority(1));
		queue.add("a/2", AddOptions.priority(1));
		assertTakenInOrder(queue, "b/2", "a/2", "a/1", "b/1");
	}

}
