package io.github.workqueue.redis;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;

import io.lettuce.core.api.StatefulRedisConnection;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import io.github.workqueue.core.FakeClock;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;
import static org.awaitility.Awaitility.await;

/**
 * Fencing per processing: a lease belongs to the thread that took the item, so a stale
 * processing of an instance never ends the live processing of the same instance; tokens
 * only grow, even after Redis lost writes; a repeated done of an accepted lease is
 * accepted; liveness follows the monotonic clock; a lease whose thread died is not
 * renewed.
 */
class LeaseFencingTest {

	private final String name = TestRedis.uniqueName("fencing");

	private final List<RedisQueue<String>> queues = new ArrayList<>();

	private final ExecutorService stale = Executors.newSingleThreadExecutor();

	private final ExecutorService live = Executors.newSingleThreadExecutor();

	@AfterEach
	void shutDown() {
		this.queues.forEach(RedisQueue::shutDown);
		this.stale.shutdownNow();
		this.live.shutdownNow();
	}

	private RedisQueue<String> queue(RedisQueueBuilder builder) {
		RedisQueue<String> queue = builder.build(ItemCodec.strings());
		this.queues.add(queue);
		return queue;
	}

	private RedisQueueBuilder builder() {
		return RedisQueue.builder(RedisQueueConnection.of(TestRedis.client()), this.name);
	}

	private static <V> V on(ExecutorService thread, Callable<V> call) throws Exception {
		return thread.submit(call).get(10, TimeUnit.SECONDS);
	}

	@ParameterizedTest(name = "stale done first: {0}")
	@ValueSource(booleans = { true, false })
	void aStaleProcessingsDoneShouldNeverEndTheLiveProcessingOfTheSameInstance(boolean staleFirst) throws Exception {
		FakeClock clock = new FakeClock();
		RedisQueue<String> queue = queue(builder().timeForTests(clock).leaseDuration(Duration.ofSeconds(10)));
		queue.add("slow");
		assertThat(on(this.stale, () -> queue.get(Duration.ofSeconds(5)))).contains("slow");
		long staleToken = on(this.stale, () -> queue.lease("slow").orElseThrow().token());
		// The instance was cut off past the lease: Redis redelivers the item, here to
		// another worker of the same instance, while the first processing still runs.
		clock.step(Duration.ofSeconds(11));
		assertThat(on(this.live, () -> queue.get(Duration.ofSeconds(5)))).contains("slow");
		Lease liveLease = on(this.live, () -> queue.lease("slow").orElseThrow());
		assertThat(liveLease.token()).isGreaterThan(staleToken);
		assertThat(on(this.stale, () -> queue.lease("slow").orElseThrow().token()))
			.as("each processing sees its own lease")
			.isEqualTo(staleToken);
		if (staleFirst) {
			on(this.stale, () -> done(queue, "slow"));
			assertThat(queue.stats().rejectedDones()).as("the stale done is fenced").isEqualTo(1);
			assertThat(queue.stats().inFlight()).as("the live processing keeps its lease").isEqualTo(1);
			assertThat(liveLease.isLive()).isTrue();
			on(this.live, () -> done(queue, "slow"));
		}
		else {
			on(this.live, () -> done(queue, "slow"));
			assertThat(queue.stats().rejectedDones()).isZero();
			on(this.stale, () -> done(queue, "slow"));
		}
		assertThat(queue.stats().inFlight()).isZero();
		assertThat(queue.stats().rejectedDones()).as("only the stale done was rejected").isEqualTo(1);
	}

	private static Void done(RedisQueue<String> queue, String item) {
		queue.done(item);
		return null;
	}

	@Test
	void doneOfALeaseShouldSayWhetherItWasAcceptedAndARepeatShouldBeAcceptedAgain() throws Exception {
		FakeClock clock = new FakeClock();
		RedisQueue<String> queue = queue(builder().timeForTests(clock).leaseDuration(Duration.ofSeconds(10)));
		queue.add("a");
		assertThat(queue.get(Duration.ofSeconds(5))).contains("a");
		Lease lease = queue.lease("a").orElseThrow();
		assertThat(queue.done(lease)).isEqualTo(DoneResult.ACCEPTED);
		assertThat(queue.done(lease)).as("a retry whose first reply was lost").isEqualTo(DoneResult.ACCEPTED);
		assertThat(lease.isLive()).as("ended").isFalse();
		queue.add("b");
		assertThat(queue.get(Duration.ofSeconds(5))).contains("b");
		Lease expired = queue.lease("b").orElseThrow();
		clock.step(Duration.ofSeconds(11));
		assertThat(queue.done(expired)).isEqualTo(DoneResult.REJECTED);
		assertThat(queue.stats().rejectedDones()).as("real rejections only").isEqualTo(1);
		RedisQueue<String> other = queue(
				RedisQueue.builder(RedisQueueConnection.of(TestRedis.client()), TestRedis.uniqueName("other")));
		assertThatIllegalArgumentException().isThrownBy(() -> other.done(lease));
	}

	@Test
	void doneOfALeaseGivenBackAtShutdownShouldBeRejectedWithoutCountingARejection() throws Exception {
		RedisQueue<String> queue = queue(builder());
		queue.add("a");
		assertThat(queue.get(Duration.ofSeconds(5))).contains("a");
		Lease lease = queue.lease("a").orElseThrow();
		assertThat(queue.shutDownWithDrain(Duration.ZERO)).as("the drain gives the lease back").isFalse();
		assertThat(queue.done(lease)).isEqualTo(DoneResult.REJECTED);
		assertThat(queue.stats().rejectedDones()).isZero();
		assertThat(queue.stats().queued()).as("queued again for the other instances").isEqualTo(1);
	}

	@Test
	void tokensShouldKeepGrowingAfterRedisLostItsLastWrites() throws Exception {
		RedisQueue<String> queue = queue(builder());
		long highest = 0;
		for (int i = 0; i < 5; i++) {
			highest = Math.max(highest, grantAndDone(queue, "x"));
		}
		try (StatefulRedisConnection<String, String> connection = TestRedis.client().connect()) {
			String counters = "{workqueue:" + this.name + "}:counters";
			// What a crash under appendfsync everysec leaves: the counter rolled back...
			connection.sync().hset(counters, "tokens", "1");
			assertThat(grantAndDone(queue, "x")).isGreaterThan(highest);
			// ...or lost altogether.
			connection.sync().del(counters);
			assertThat(grantAndDone(queue, "x")).isGreaterThan(highest);
		}
	}

	private static long grantAndDone(RedisQueue<String> queue, String item) throws InterruptedException {
		queue.add(item);
		assertThat(queue.get(Duration.ofSeconds(5))).contains(item);
		long token = queue.lease(item).orElseThrow().token();
		assertThat(queue.done(queue.lease(item).orElseThrow())).isEqualTo(DoneResult.ACCEPTED);
		return token;
	}

	@ParameterizedTest(name = "Redis time {0} years from the epoch")
	@ValueSource(longs = { 0, 130 })
	void livenessShouldFollowTheMonotonicClockWhateverTheWallClockSays(long years) throws Exception {
		FakeClock redisTime = new FakeClock(TimeUnit.DAYS.toNanos(365 * years));
		RedisQueue<String> queue = queue(builder().timeForTests(redisTime).leaseDuration(Duration.ofMillis(600)));
		queue.add("x");
		assertThat(on(this.live, () -> queue.get(Duration.ofSeconds(5)))).contains("x");
		Lease lease = on(this.live, () -> queue.lease("x").orElseThrow());
		Instant wallNow = Instant.now();
		assertThat(Duration.between(wallNow, lease.expiresAt()).abs())
			.as("Redis's deadline is far from this instance's wall clock")
			.isGreaterThan(Duration.ofDays(3650));
		assertThat(lease.isLive()).isTrue();
		// Renewed while its processing lives: live past its first deadline.
		await().during(Duration.ofMillis(900)).atMost(Duration.ofSeconds(3)).until(lease::isLive);
		// Its thread ends without done: no renewal, so it is no longer live within a
		// lease.
		this.live.shutdown();
		assertThat(this.live.awaitTermination(5, TimeUnit.SECONDS)).isTrue();
		await().atMost(Duration.ofSeconds(3)).until(() -> !lease.isLive());
	}

	@Test
	void anItemWhoseProcessingThreadDiedWithoutDoneShouldBeDeliveredAgainWithinALease() throws Exception {
		RedisQueue<String> queue = queue(builder().leaseDuration(Duration.ofMillis(500)));
		queue.add("orphan");
		assertThat(on(this.stale, () -> queue.get(Duration.ofSeconds(5)))).contains("orphan");
		this.stale.shutdown();
		assertThat(this.stale.awaitTermination(5, TimeUnit.SECONDS)).isTrue();
		long start = System.nanoTime();
		Optional<String> again = queue.get(Duration.ofSeconds(10));
		long waitedMillis = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start);
		assertThat(again).contains("orphan");
		assertThat(waitedMillis).as("a lease (500ms), the renewal period and the reaping, not the whole run")
			.isLessThan(3000);
		assertThat(queue.stats().redeliveries()).isEqualTo(1);
		queue.done("orphan");
		assertThat(queue.stats().inFlight()).isZero();
	}

}
