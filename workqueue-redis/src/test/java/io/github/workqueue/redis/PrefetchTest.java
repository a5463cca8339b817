package io.github.workqueue.redis;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.logging.Level;

import io.github.workqueue.core.AddOptions;
import io.github.workqueue.core.FakeClock;
import io.github.workqueue.core.WorkQueue;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;
import static org.awaitility.Awaitility.await;

/**
 * Leasing ahead ({@link RedisQueueBuilder#prefetch(int)}): buffered items are in flight
 * for the queue, handed out in order, renewed, given back at shutdown and pause without
 * counting a redelivery, and lost with their instance like any lease; adaptive (the
 * default), none while a worker is slower than a round trip and a bounded number for
 * quick workers. Most tests fix the buffer at the bound ({@code adaptivePrefetch(false)})
 * to know what it holds. Redis's time is a fake clock, so that leases expire when a test
 * says so.
 */
class PrefetchTest {

	@RegisterExtension
	final QueueLogRecords logs = new QueueLogRecords();

	private final FakeClock clock = new FakeClock();

	private final String name = TestRedis.uniqueName("prefetch");

	private final List<RedisQueue<?>> queues = new ArrayList<>();

	private final List<RedisQueueConnection> connections = new ArrayList<>();

	@AfterEach
	void shutDown() {
		this.queues.forEach(WorkQueue::shutDown);
		this.connections.forEach(RedisQueueConnection::close);
	}

	private RedisQueue<String> instance(String holder, int prefetch) {
		return instance(holder, prefetch, Duration.ofSeconds(10));
	}

	private RedisQueue<String> instance(String holder, int prefetch, Duration lease) {
		RedisQueueConnection connection = RedisQueueConnection.of(TestRedis.client());
		this.connections.add(connection);
		RedisQueue<String> queue = RedisQueue.builder(connection, this.name)
			.holder(holder)
			.timeForTests(this.clock)
			.leaseDuration(lease)
			.prefetch(prefetch)
			.adaptivePrefetch(false)
			.build(ItemCodec.strings());
		this.queues.add(queue);
		return queue;
	}

	private static String take(WorkQueue<String> queue) throws InterruptedException {
		Optional<String> item = queue.get(Duration.ofSeconds(5));
		assertThat(item).as("an item is ready").isPresent();
		return item.get();
	}

	private static long heldBy(RedisQueue<String> queue, String holder) {
		return queue.inFlight().stream().filter((item) -> item.holder().equals(holder)).count();
	}

	@Test
	void itemsLeasedAheadShouldBeInFlightAndHandedOutInTheOrderTaken() throws InterruptedException {
		RedisQueue<String> a = instance("a", 4);
		for (String item : List.of("p", "q", "r", "s", "t", "u")) {
			a.add(item);
		}
		assertThat(take(a)).isEqualTo("p");
		assertThat(a.stats().inFlight()).as("p and the four leased ahead").isEqualTo(5);
		assertThat(a.len()).as("only u is queued").isEqualTo(1);
		List<String> rest = new ArrayList<>();
		for (int i = 0; i < 5; i++) {
			rest.add(take(a));
		}
		assertThat(rest).containsExactly("q", "r", "s", "t", "u");
		for (String item : List.of("p", "q", "r", "s", "t", "u")) {
			a.done(item);
		}
		assertThat(a.stats()).isEqualTo(new RedisQueueStats(0, 0, 0, 0, 0, 0, 0));
	}

	@Test
	void anItemAddedAgainWhileBufferedShouldRunAgainAfterItsDone() throws InterruptedException {
		RedisQueue<String> a = instance("a", 2);
		a.add("p");
		a.add("q");
		assertThat(take(a)).isEqualTo("p");
		a.add("q");
		assertThat(a.len()).as("q is in flight, so the add marks it dirty").isZero();
		assertThat(take(a)).isEqualTo("q");
		a.done("q");
		assertThat(take(a)).as("dirty while buffered: runs again").isEqualTo("q");
		a.done("q");
		a.done("p");
		assertThat(a.stats().inFlight()).isZero();
	}

	@Test
	void removeOfAnItemLeasedAheadShouldEndItsLeaseSoThatNoWorkerIsHandedIt() throws InterruptedException {
		RedisQueue<String> a = instance("a", 3);
		RedisQueue<String> b = instance("b", 0);
		for (String item : List.of("p", "q", "r", "s")) {
			a.add(item);
		}
		assertThat(take(a)).isEqualTo("p");
		assertThat(heldBy(a, "a")).as("p and q, r, s leased ahead").isEqualTo(4);
		assertThat(a.remove("r")).as("queued as far as a's workers know").isTrue();
		assertThat(heldBy(a, "a")).as("r's lease ended").isEqualTo(3);
		assertThat(b.remove("q")).as("b cannot see a's buffer: q counts as taken there").isFalse();
		assertThat(List.of(take(a), take(a))).containsExactly("q", "s");
		assertThat(a.get(Duration.ZERO)).as("r was removed").isEmpty();
		for (String item : List.of("p", "q", "s")) {
			a.done(item);
		}
		assertThat(a.stats()).isEqualTo(new RedisQueueStats(0, 0, 0, 0, 0, 0, 0));
		a.add("r");
		assertThat(take(b)).as("an add after the remove queues it again").isEqualTo("r");
	}

	@Test
	void shutdownShouldGiveTheBufferBackInOrderWithoutCountingRedeliveries() throws InterruptedException {
		RedisQueue<String> a = instance("a", 3);
		RedisQueue<String> b = instance("b", 0);
		for (String item : List.of("p", "q", "r", "s", "t")) {
			a.add(item);
		}
		assertThat(take(a)).isEqualTo("p");
		assertThat(heldBy(a, "a")).isEqualTo(4);
		a.shutDown();
		assertThat(heldBy(a, "a")).as("p stays with its worker").isEqualTo(1);
		assertThat(List.of(take(b), take(b), take(b), take(b))).containsExactly("q", "r", "s", "t");
		assertThat(b.stats().redeliveries()).isZero();
		a.done("p");
		assertThat(b.stats().inFlight()).isEqualTo(4);
	}

	@Test
	void givingBackLeasedAheadShouldReturnTheBufferAndLeaseNoneAheadUntilTheNextTake() throws InterruptedException {
		RedisQueue<String> a = instance("a", 3);
		for (String item : List.of("p", "q", "r", "s")) {
			a.add(item);
		}
		assertThat(take(a)).isEqualTo("p");
		assertThat(a.giveBackLeasedAhead()).isEqualTo(3);
		a.done("p");
		a.add("v");
		assertThat(heldBy(a, "a")).as("nothing leased ahead while paused").isZero();
		assertThat(a.len()).isEqualTo(4);
		assertThat(take(a)).as("the given-back items kept their place").isEqualTo("q");
		assertThat(a.stats().redeliveries()).isZero();
		assertThat(List.of(take(a), take(a), take(a))).containsExactly("r", "s", "v");
	}

	@Test
	void atTheDefaultsAnInstanceWhoseWorkerIsSlowerThanARoundTripLeasesNothingAhead() throws InterruptedException {
		RedisQueueConnection connection = RedisQueueConnection.of(TestRedis.client());
		this.connections.add(connection);
		RedisQueue<String> a = RedisQueue.builder(connection, this.name).holder("a").build(ItemCodec.strings());
		this.queues.add(a);
		int windows = 2;
		for (int i = 0; i < windows * 16 + 1; i++) {
			a.add("item-" + i);
		}
		for (int i = 0; i < windows * 16; i++) {
			String item = take(a);
			assertThat(heldBy(a, "a")).as("only the worker's own item, at take %d", i).isEqualTo(1);
			// The work: far longer than a round trip to the local Redis.
			Thread.sleep(50);
			a.done(item);
		}
		assertThat(a.len()).as("nothing leased ahead after the last take").isEqualTo(1);
	}

	@Test
	void atTheDefaultsQuickWorkersLeaseAheadWithinTheBoundAndAHigherPriorityWaitsBehindAtMostThat() throws Exception {
		RedisQueueConnection connection = RedisQueueConnection.of(TestRedis.client());
		this.connections.add(connection);
		int bound = 8;
		RedisQueue<String> a = RedisQueue.builder(connection, this.name)
			.holder("a")
			.prefetch(bound)
			.build(ItemCodec.strings());
		this.queues.add(a);
		List<String> backlog = new ArrayList<>();
		for (int i = 0; i < 2_000; i++) {
			backlog.add("low-" + i);
		}
		a.addAll(backlog);
		long mostHeld = 0;
		int taken = 0;
		while (taken < 1_500) {
			String item = take(a);
			taken++;
			mostHeld = Math.max(mostHeld, heldBy(a, "a") - 1);
			a.doneWithoutWaiting(item);
			if (mostHeld > 0 && taken >= 200) {
				break;
			}
		}
		assertThat(mostHeld).as("leased ahead by a quick worker, within the bound").isBetween(1L, (long) bound);
		a.add("urgent", AddOptions.priority(10));
		int before = 0;
		for (String item = take(a); !item.equals("urgent"); item = take(a)) {
			before++;
			a.doneWithoutWaiting(item);
		}
		assertThat(before).as("low items handed out after the urgent add returned").isLessThanOrEqualTo(bound);
	}

	@Test
	void aHigherPriorityItemShouldWaitBehindAtMostPrefetchBufferedItems() throws InterruptedException {
		RedisQueue<String> a = instance("a", 2);
		for (String item : List.of("p", "q", "r", "s")) {
			a.add(item);
		}
		assertThat(take(a)).isEqualTo("p");
		a.add("urgent", AddOptions.priority(10));
		List<String> next = List.of(take(a), take(a), take(a));
		assertThat(next).containsExactly("q", "r", "urgent");
	}

	@Test
	void aFairnessKeysTurnShouldWaitBehindAtMostPrefetchBufferedItems() throws InterruptedException {
		List<String> exact = takesAfterASmallTenantsAdd(0);
		List<String> leasingAhead = takesAfterASmallTenantsAdd(2);
		assertThat(exact).as("big's turn first, then small's").startsWith("big/2", "small/1");
		assertThat(leasingAhead).as("the two leased ahead first, then the turns as without them")
			.containsExactly("big/2", "big/3", "big/4", "small/1");
		assertThat(leasingAhead.indexOf("small/1")).isEqualTo(exact.indexOf("small/1") + 2);
	}

	/**
	 * On a queue with fairness by tenant: six items of tenant big, one taken, then one of
	 * tenant small added: the next four takes.
	 */
	private List<String> takesAfterASmallTenantsAdd(int prefetch) throws InterruptedException {
		RedisQueueConnection connection = RedisQueueConnection.of(TestRedis.client());
		this.connections.add(connection);
		RedisQueue<String> queue = RedisQueue.builder(connection, this.name + "-" + prefetch)
			.holder("a")
			.timeForTests(this.clock)
			.fairness((String item) -> List.of(item.substring(0, item.indexOf('/'))))
			.prefetch(prefetch)
			.adaptivePrefetch(false)
			.build(ItemCodec.strings());
		this.queues.add(queue);
		for (int i = 1; i <= 6; i++) {
			queue.add("big/" + i);
		}
		assertThat(take(queue)).isEqualTo("big/1");
		queue.add("small/1");
		return List.of(take(queue), take(queue), take(queue), take(queue));
	}

	@Test
	void bufferedLeasesShouldBeRenewedWhileTheyWait() throws InterruptedException {
		RedisQueue<String> a = instance("a", 2, Duration.ofMillis(900));
		RedisQueue<String> b = instance("b", 0, Duration.ofMillis(900));
		a.add("p");
		a.add("q");
		assertThat(take(a)).isEqualTo("p");
		long granted = a.inFlight()
			.stream()
			.filter((item) -> item.item().equals("q"))
			.findFirst()
			.orElseThrow()
			.expiresAt()
			.toEpochMilli();
		this.clock.step(Duration.ofMillis(600));
		await().atMost(Duration.ofSeconds(5))
			.until(() -> a.inFlight()
				.stream()
				.filter((item) -> item.item().equals("q"))
				.allMatch((item) -> item.expiresAt().toEpochMilli() > granted));
		this.clock.step(Duration.ofMillis(600));
		assertThat(b.get(Duration.ofMillis(50))).as("q's renewed lease still holds it").isEmpty();
		assertThat(take(a)).isEqualTo("q");
		a.done("q");
		a.done("p");
		assertThat(b.stats().redeliveries()).isZero();
	}

	@Test
	void aBufferedLeaseThatExpiredShouldNotBeHandedOut() throws InterruptedException {
		RedisQueue<String> a = instance("a", 2, Duration.ofMillis(900));
		RedisQueue<String> b = instance("b", 0, Duration.ofMillis(900));
		a.add("p");
		a.add("q");
		assertThat(take(a)).isEqualTo("p");
		// A stall longer than the lease: Redis's clock jumps past it before a renewal.
		this.clock.step(Duration.ofSeconds(5));
		List<String> taken = List.of(take(b), take(b));
		assertThat(taken).containsExactlyInAnyOrder("p", "q");
		await().atMost(Duration.ofSeconds(5))
			.until(() -> this.logs.messages(Level.WARNING)
				.stream()
				.anyMatch((message) -> message.contains("lost the lease of q while it waited to be taken")));
		assertThat(a.get(Duration.ofMillis(50))).as("q is b's now").isEmpty();
		assertThat(b.stats().redeliveries()).isEqualTo(2);
	}

	@Test
	void anInstanceThatDiesShouldLoseItsBufferedItemsToTheOthersAfterTheLease() throws InterruptedException {
		RedisQueue<String> a = instance("a", 3);
		RedisQueue<String> b = instance("b", 0);
		for (String item : List.of("p", "q", "r")) {
			a.add(item);
		}
		assertThat(take(a)).isEqualTo("p");
		// Its connection gone, a neither renews nor gives back anything: as if killed.
		this.connections.get(0).close();
		assertThat(b.get(Duration.ofMillis(50))).as("still leased to a").isEmpty();
		this.clock.step(Duration.ofSeconds(11));
		List<String> taken = List.of(take(b), take(b), take(b));
		assertThat(taken).containsExactlyInAnyOrder("p", "q", "r");
		assertThat(b.stats().redeliveries()).isEqualTo(3);
	}

	@Test
	void onAClusterEachShardsBufferedItemsShouldGoBackToTheirShardAtShutdown() throws InterruptedException {
		RedisQueueConnection cluster = RedisQueueConnection.of(TestRedisCluster.client());
		this.connections.add(cluster);
		RedisQueue<String> a = RedisQueue.builder(cluster, this.name)
			.holder("a")
			.shards(3)
			.prefetch(4)
			.adaptivePrefetch(false)
			.build(ItemCodec.strings());
		RedisQueue<String> b = RedisQueue.builder(cluster, this.name)
			.holder("b")
			.shards(3)
			.prefetch(0)
			.build(ItemCodec.strings());
		this.queues.add(a);
		this.queues.add(b);
		for (int i = 0; i < 30; i++) {
			a.add("item-" + i);
		}
		String first = take(a);
		assertThat(b.stats().inFlight()).as("the taken item and four leased ahead").isEqualTo(5);
		a.shutDown();
		assertThat(b.stats().inFlight()).as("the buffer went back").isEqualTo(1);
		List<String> rest = new ArrayList<>();
		Optional<String> item;
		while ((item = b.get(Duration.ofSeconds(1))).isPresent()) {
			rest.add(item.get());
			b.done(item.get());
		}
		a.done(first);
		assertThat(rest).hasSize(29).doesNotContain(first).doesNotHaveDuplicates();
		assertThat(b.stats()).isEqualTo(new RedisQueueStats(0, 0, 0, 0, 0, 0, 0));
	}

	@Test
	void prefetchOutOfRangeShouldBeRefusedNamingTheRange() {
		RedisQueueBuilder builder = RedisQueue.builder(RedisQueueConnection.of(TestRedis.client()), this.name);
		assertThatIllegalArgumentException().isThrownBy(() -> builder.prefetch(-1))
			.withMessage("prefetch must be between 0 and 256, was -1");
		assertThatIllegalArgumentException().isThrownBy(() -> builder.prefetch(257)).withMessageContaining("was 257");
	}

}
