package io.github.workqueue.redis.failover;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

import io.github.workqueue.redis.DoneResult;
import io.github.workqueue.redis.ItemCodec;
import io.github.workqueue.redis.LateDoneOutcome;
import io.github.workqueue.redis.Lease;
import io.github.workqueue.redis.RedisQueue;
import io.github.workqueue.redis.TestRedis;
import io.lettuce.core.RedisURI;
import io.lettuce.core.api.StatefulRedisConnection;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * A {@code done} whose request or reply is held up in the network (a {@link FaultProxy}
 * between the instance and Redis): it never states an outcome it does not know, the
 * outcome it learns later is Redis's, and a rejection is counted once.
 *
 * <p>
 * The instance's command timeout is 1.5 s and its connect timeout 0.5 s, so a done waits
 * 4 s at most for an answer; leases last 3 s, so a done is asked for 6 s.
 */
class UnansweredDoneTest {

	private static final Duration LEASE = Duration.ofSeconds(3);

	private final String name = TestRedis.uniqueName("unanswered-done");

	private final StatefulRedisConnection<String, String> direct = TestRedis.client().connect();

	private final List<LateDoneOutcome> late = new CopyOnWriteArrayList<>();

	private final ScheduledExecutorService healer = Executors.newSingleThreadScheduledExecutor();

	private FaultProxy proxy;

	private RedisQueue<String> queue;

	@BeforeEach
	void start() throws Exception {
		this.proxy = new FaultProxy(RedisURI.create(TestRedis.uri()));
		this.queue = RedisQueue.builder(this.proxy.connection(Duration.ofMillis(1500)), this.name)
			.leaseDuration(LEASE)
			.lateDoneListener(this.late::add)
			.build(ItemCodec.strings());
	}

	@AfterEach
	void stop() {
		this.healer.shutdownNow();
		this.queue.shutDown();
		this.proxy.close();
		this.direct.close();
	}

	@Test
	void aDoneStalledBothWaysPastItsLeaseShouldResolveToRejectedCountedOnce() throws Exception {
		Lease lease = take("a");
		this.proxy.holdRequests(true);
		this.proxy.holdReplies(true);

		assertThat(this.queue.done(lease)).isEqualTo(DoneResult.NO_ANSWER);
		// Redis's own clock says the lease expired before any attempt of the done reaches
		// it.
		await().atMost(Duration.ofSeconds(10)).until(() -> redisNow().isAfter(lease.expiresAt()));
		this.proxy.heal();

		assertThat(outcome(lease)).isEqualTo(DoneResult.REJECTED);
		assertThat(this.late).singleElement()
			.satisfies((outcome) -> assertThat(outcome.result()).isEqualTo(DoneResult.REJECTED));
		assertThat(this.queue.stats().rejectedDones()).as("counted once, however many attempts reached Redis")
			.isEqualTo(1);
		assertThat(this.queue.get(Duration.ofSeconds(5))).as("the item comes back").contains("a");
		assertThat(this.queue.stats().redeliveries()).isEqualTo(1);
		this.queue.done("a");
	}

	@Test
	void aDoneWhoseRepliesAreStalledShouldResolveToAcceptedAndItsItemNotComeBack() throws Exception {
		Lease lease = take("a");
		this.proxy.holdReplies(true);

		assertThat(this.queue.done(lease)).isEqualTo(DoneResult.NO_ANSWER);
		this.proxy.heal();

		assertThat(outcome(lease)).isEqualTo(DoneResult.ACCEPTED);
		assertThat(this.late).singleElement()
			.satisfies((outcome) -> assertThat(outcome.result()).isEqualTo(DoneResult.ACCEPTED));
		// Past the lease's deadline: an item whose done was not applied would be back.
		await().atMost(Duration.ofSeconds(10)).until(() -> redisNow().isAfter(lease.expiresAt()));
		assertThat(this.queue.get(Duration.ofMillis(500))).isEmpty();
		assertThat(this.queue.stats().rejectedDones()).isZero();
		assertThat(this.queue.stats().redeliveries()).isZero();
		assertThat(this.queue.inFlight()).isEmpty();
	}

	@Test
	void aDoneStalledBrieflyShouldBeAcceptedAndNothingCounted() throws Exception {
		Lease lease = take("a");
		this.proxy.holdRequests(true);
		this.proxy.holdReplies(true);
		this.healer.schedule(this.proxy::heal, 1500, TimeUnit.MILLISECONDS);

		assertThat(this.queue.done(lease)).isEqualTo(DoneResult.ACCEPTED);

		assertThat(outcome(lease)).isEqualTo(DoneResult.ACCEPTED);
		assertThat(this.late).as("no late outcome for a done that was answered").isEmpty();
		assertThat(this.queue.stats().rejectedDones()).isZero();
		assertThat(this.queue.stats().redeliveries()).isZero();
	}

	/** Adds the item and takes it on this thread: the lease. */
	private Lease take(String item) throws InterruptedException {
		this.queue.add(item);
		assertThat(this.queue.get(Duration.ofSeconds(5))).contains(item);
		return this.queue.lease(item).orElseThrow();
	}

	private static DoneResult outcome(Lease lease) throws Exception {
		return lease.outcome().toCompletableFuture().get(20, TimeUnit.SECONDS);
	}

	private Instant redisNow() {
		List<String> time = this.direct.sync().time();
		return Instant.ofEpochSecond(Long.parseLong(time.get(0)), Long.parseLong(time.get(1)) * 1000);
	}

}
