package io.github.workqueue.redis;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import io.github.workqueue.core.FakeClock;
import io.github.workqueue.core.RateLimitingQueue;
import io.github.workqueue.core.WorkQueue;
import io.github.workqueue.core.ratelimit.BucketRateLimiter;
import io.github.workqueue.core.ratelimit.ExponentialFailureRateLimiter;
import io.github.workqueue.core.ratelimit.FastSlowRateLimiter;
import io.github.workqueue.core.ratelimit.MaxOfRateLimiter;
import io.github.workqueue.core.ratelimit.RateLimiter;
import io.github.workqueue.core.ratelimit.WithMaxWaitRateLimiter;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.Parameter;
import org.junit.jupiter.params.ParameterizedClass;
import org.junit.jupiter.params.provider.ValueSource;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The contract of DESIGN.md's core semantics, run against both backends: the in-memory
 * queue and the Redis queue (on a real Redis, with the time of both driven by one
 * {@link FakeClock}), on one Redis and on a Redis Cluster, with one shard and with three.
 * With several shards, items come out in the order added only within a shard: the order
 * checks then check what came out, in any order.
 */
@ParameterizedClass(name = "{0}")
@ValueSource(strings = { "memory", "redis", "redis-cluster", "redis-sharded", "redis-cluster-sharded" })
class QueueContractTest {

	private static final Duration NOW = Duration.ZERO;

	@Parameter
	String backend;

	private final FakeClock clock = new FakeClock();

	private final List<RateLimitingQueue<String>> queues = new ArrayList<>();

	@AfterEach
	void shutDown() {
		this.queues.forEach(WorkQueue::shutDown);
	}

	private RateLimitingQueue<String> queue(RateLimiter<?> limiter) {
		RateLimitingQueue<String> queue = ContractQueues.create(this.backend, this.clock, limiter, null, "contract");
		this.queues.add(queue);
		return queue;
	}

	private RateLimitingQueue<String> queue() {
		return queue(new ExponentialFailureRateLimiter<>(Duration.ofMillis(1), Duration.ofSeconds(1)));
	}

	private void assertTakenInOrder(WorkQueue<String> queue, String... expected) throws InterruptedException {
		List<String> taken = new ArrayList<>();
		for (int i = 0; i < expected.length; i++) {
			taken.add(take(queue));
		}
		if (ContractQueues.isSharded(this.backend)) {
			assertThat(taken).containsExactlyInAnyOrder(expected);
		}
		else {
			assertThat(taken).containsExactly(expected);
		}
	}

	private static String take(WorkQueue<String> queue) throws InterruptedException {
		Optional<String> item = queue.get(Duration.ofSeconds(5));
		assertThat(item).as("an item is ready").isPresent();
		return item.get();
	}

	@Test
	void itemsShouldComeOutInTheOrderAdded() throws InterruptedException {
		RateLimitingQueue<String> queue = queue();
		queue.add("a");
		queue.add("b");
		queue.add("c");
		assertThat(queue.len()).isEqualTo(3);
		assertTakenInOrder(queue, "a", "b", "c");
		assertThat(queue.len()).isZero();
	}

	@Test
	void anAddOfAQueuedItemShouldBeDeduplicated() throws InterruptedException {
		RateLimitingQueue<String> queue = queue();
		queue.add("a");
		queue.add("b");
		queue.add("a");
		assertThat(queue.len()).isEqualTo(2);
		assertTakenInOrder(queue, "a", "b");
		assertThat(queue.get(NOW)).isEmpty();
	}

	@Test
	void anAddWhileProcessingShouldRunOnceMoreAfterDone() throws InterruptedException {
		RateLimitingQueue<String> queue = queue();
		queue.add("a");
		assertThat(take(queue)).isEqualTo("a");
		queue.add("a");
		queue.add("a");
		assertThat(queue.len()).as("not handed out while it is processing").isZero();
		assertThat(queue.get(NOW)).isEmpty();
		queue.done("a");
		assertThat(queue.len()).isEqualTo(1);
		assertThat(take(queue)).isEqualTo("a");
		queue.done("a");
		assertThat(queue.get(NOW)).isEmpty();
	}

	@Test
	void removeShouldTakeAQueuedItemOutAndLeaveTheOthersInOrder() throws InterruptedException {
		RateLimitingQueue<String> queue = queue();
		queue.add("a");
		queue.add("b");
		queue.add("c");
		assertThat(queue.remove("b")).isTrue();
		assertThat(queue.remove("b")).as("nothing left to remove").isFalse();
		assertThat(queue.remove("never-added")).isFalse();
		assertThat(queue.len()).isEqualTo(2);
		assertTakenInOrder(queue, "a", "c");
		queue.add("b");
		assertThat(take(queue)).as("an add after the remove queues it again").isEqualTo("b");
	}

	@Test
	void removeShouldDropAWaitingItemsEntry() throws InterruptedException {
		RateLimitingQueue<String> queue = queue();
		queue.addAfter("a", Duration.ofSeconds(1));
		queue.addRateLimited("b");
		assertThat(queue.remove("a")).isTrue();
		assertThat(queue.remove("b")).isTrue();
		this.clock.step(Duration.ofSeconds(2));
		assertThat(queue.waitingLen()).isZero();
		assertThat(queue.len()).isZero();
		assertThat(queue.get(NOW)).isEmpty();
	}

	@Test
	void removeOfAnItemBeingProcessedShouldClearItsReAddAndLetItsProcessingEnd() throws InterruptedException {
		RateLimitingQueue<String> queue = queue();
		queue.add("a");
		assertThat(take(queue)).isEqualTo("a");
		assertThat(queue.remove("a")).as("processing, not re-added: nothing to remove").isFalse();
		queue.add("a");
		queue.addAfter("a", Duration.ofSeconds(1));
		assertThat(queue.remove("a")).isTrue();
		queue.done("a");
		this.clock.step(Duration.ofSeconds(2));
		assertThat(queue.len()).as("not queued again at its done").isZero();
		assertThat(queue.get(NOW)).isEmpty();
	}

	@Test
	void doneOfAnItemNotProcessingShouldChangeNothing() throws InterruptedException {
		RateLimitingQueue<String> queue = queue();
		queue.done("a");
		queue.add("b");
		queue.done("b");
		assertThat(queue.len()).isEqualTo(1);
		assertThat(take(queue)).isEqualTo("b");
		assertThat(queue.get(NOW)).isEmpty();
	}

	@Test
	void aDelayedItemShouldBeReadyAtItsTimeAndNotBefore() throws InterruptedException {
		RateLimitingQueue<String> queue = queue();
		queue.addAfter("a", Duration.ofSeconds(1));
		assertThat(queue.waitingLen()).isEqualTo(1);
		assertThat(queue.get(NOW)).isEmpty();
		this.clock.step(Duration.ofMillis(999));
		assertThat(queue.get(NOW)).isEmpty();
		this.clock.step(Duration.ofMillis(1));
		assertThat(take(queue)).isEqualTo("a");
		assertThat(queue.waitingLen()).isZero();
	}

	@Test
	void aDelayOfZeroOrLessShouldBeAnAdd() throws InterruptedException {
		RateLimitingQueue<String> queue = queue();
		queue.addAfter("a", Duration.ZERO);
		queue.addAfter("b", Duration.ofSeconds(-1));
		assertTakenInOrder(queue, "a", "b");
	}

	@Test
	void theEarliestReadyTimeShouldWin() throws InterruptedException {
		RateLimitingQueue<String> queue = queue();
		queue.addAfter("a", Duration.ofSeconds(5));
		queue.addAfter("a", Duration.ofSeconds(1));
		queue.addAfter("a", Duration.ofSeconds(10));
		assertThat(queue.waitingLen()).isEqualTo(1);
		this.clock.step(Duration.ofSeconds(1));
		assertThat(take(queue)).isEqualTo("a");
		queue.done("a");
		this.clock.step(Duration.ofSeconds(10));
		assertThat(queue.get(NOW)).as("one waiting entry per item").isEmpty();
	}

	@Test
	void anAddShouldSupersedeAWaitingEntry() throws InterruptedException {
		RateLimitingQueue<String> queue = queue();
		queue.addAfter("a", Duration.ofSeconds(10));
		queue.add("a");
		assertThat(queue.waitingLen()).isZero();
		assertThat(take(queue)).isEqualTo("a");
		queue.done("a");
		this.clock.step(Duration.ofSeconds(10));
		assertThat(queue.get(NOW)).isEmpty();
	}

	@Test
	void waitingItemsShouldBecomeReadyInReadyTimeOrderTiesInInsertionOrder() throws InterruptedException {
		RateLimitingQueue<String> queue = queue();
		queue.addAfter("late", Duration.ofSeconds(2));
		queue.addAfter("z-first", Duration.ofSeconds(1));
		queue.addAfter("a-second", Duration.ofSeconds(1));
		this.clock.step(Duration.ofSeconds(2));
		assertTakenInOrder(queue, "z-first", "a-second", "late");
	}

	@Test
	void aWaitingItemThatBecameDueShouldBeReadyBeforeAnItemRequeuedByDone() throws InterruptedException {
		RateLimitingQueue<String> queue = queue();
		queue.add("a");
		assertThat(take(queue)).isEqualTo("a");
		queue.addAfter("a", NOW);
		queue.addAfter("c", Duration.ofMillis(2999));
		this.clock.step(Duration.ofMillis(2000));
		this.clock.step(Duration.ofMillis(1000));
		queue.done("a");
		assertTakenInOrder(queue, "c", "a");
	}

	@Test
	void exponentialLimiterShouldDoubleUntilForgotten() {
		RateLimitingQueue<String> queue = queue();
		assertThat(queue.addRateLimited("a")).isEqualTo(Duration.ofMillis(1));
		assertThat(queue.addRateLimited("a")).isEqualTo(Duration.ofMillis(2));
		assertThat(queue.addRateLimited("a")).isEqualTo(Duration.ofMillis(4));
		assertThat(queue.numRequeues("a")).isEqualTo(3);
		assertThat(queue.numRequeues("b")).isZero();
		queue.forget("a");
		assertThat(queue.numRequeues("a")).isZero();
		assertThat(queue.addRateLimited("a")).isEqualTo(Duration.ofMillis(1));
	}

	@Test
	void exponentialLimiterShouldStopAtItsMaximumForAnyCount() {
		RateLimitingQueue<String> queue = queue();
		Duration last = Duration.ZERO;
		for (int i = 0; i < 100; i++) {
			last = queue.addRateLimited("a");
		}
		assertThat(last).isEqualTo(Duration.ofSeconds(1));
	}

	@Test
	void fastSlowLimiterShouldSwitchAfterTheFastAttempts() {
		RateLimitingQueue<String> queue = queue(
				new FastSlowRateLimiter<>(Duration.ofMillis(5), Duration.ofSeconds(10), 2));
		assertThat(queue.addRateLimited("a")).isEqualTo(Duration.ofMillis(5));
		assertThat(queue.addRateLimited("a")).isEqualTo(Duration.ofMillis(5));
		assertThat(queue.addRateLimited("a")).isEqualTo(Duration.ofSeconds(10));
		assertThat(queue.numRequeues("a")).isEqualTo(3);
	}

	@Test
	void bucketLimiterShouldStartFullAndThenSpaceItemsOut() {
		RateLimitingQueue<String> queue = queue(new BucketRateLimiter<>(1, 2, this.clock));
		assertThat(queue.addRateLimited("a")).isZero();
		assertThat(queue.addRateLimited("b")).isZero();
		assertThat(queue.addRateLimited("c")).isEqualTo(Duration.ofSeconds(1));
		assertThat(queue.addRateLimited("d")).isEqualTo(Duration.ofSeconds(2));
		assertThat(queue.numRequeues("a")).as("a bucket alone counts no failures").isZero();
	}

	@Test
	void maxOfAndMaxWaitShouldCombineTheirLimiters() {
		RateLimitingQueue<String> queue = queue(new WithMaxWaitRateLimiter<>(new MaxOfRateLimiter<>(
				List.of(new ExponentialFailureRateLimiter<>(Duration.ofMillis(1), Duration.ofHours(1)),
						new BucketRateLimiter<>(1, 1, this.clock))),
				Duration.ofMillis(1500)));
		assertThat(queue.addRateLimited("a")).as("bucket full, 1ms backoff").isEqualTo(Duration.ofMillis(1));
		assertThat(queue.addRateLimited("b")).as("bucket empty: 1s").isEqualTo(Duration.ofSeconds(1));
		assertThat(queue.addRateLimited("c")).as("2s, capped").isEqualTo(Duration.ofMillis(1500));
		assertThat(queue.numRequeues("a")).isEqualTo(1);
	}

	@Test
	void aRateLimitedAddShouldWaitForItsDelay() throws InterruptedException {
		RateLimitingQueue<String> queue = queue();
		queue.addRateLimited("a");
		queue.addRateLimited("a");
		assertThat(queue.waitingLen()).isEqualTo(1);
		this.clock.step(Duration.ofMillis(1));
		assertThat(take(queue)).isEqualTo("a");
	}

	@Test
	void addsAfterShutDownShouldBeDropped() throws InterruptedException {
		RateLimitingQueue<String> queue = queue();
		queue.shutDown();
		assertThat(queue.isShuttingDown()).isTrue();
		queue.add("a");
		queue.addAfter("b", Duration.ofSeconds(1));
		queue.addRateLimited("c");
		assertThat(queue.len()).isZero();
		assertThat(queue.waitingLen()).isZero();
		assertThat(queue.get(Duration.ofSeconds(5))).isEmpty();
	}

	@Test
	void shutDownWithDrainShouldWaitForTheItemsProcessing() throws Exception {
		RateLimitingQueue<String> queue = queue();
		queue.add("a");
		assertThat(take(queue)).isEqualTo("a");
		assertThat(queue.shutDownWithDrain(Duration.ofMillis(50))).as("a is still processing").isFalse();
		RateLimitingQueue<String> other = queue();
		other.add("b");
		assertThat(take(other)).isEqualTo("b");
		CompletableFuture<Boolean> drained = CompletableFuture.supplyAsync(() -> {
			try {
				return other.shutDownWithDrain(Duration.ofSeconds(30));
			}
			catch (InterruptedException ex) {
				throw new IllegalStateException(ex);
			}
		});
		other.done("b");
		assertThat(drained.get(30, TimeUnit.SECONDS)).isTrue();
	}

	@Test
	void aBlockedGetShouldReturnTheItemAddedByAnotherThread() throws Exception {
		RateLimitingQueue<String> queue = queue();
		CompletableFuture<Optional<String>> got = CompletableFuture.supplyAsync(() -> {
			try {
				return queue.get(Duration.ofSeconds(30));
			}
			catch (InterruptedException ex) {
				throw new IllegalStateException(ex);
			}
		});
		queue.add("a");
		assertThat(got.get(30, TimeUnit.SECONDS)).contains("a");
	}

}
