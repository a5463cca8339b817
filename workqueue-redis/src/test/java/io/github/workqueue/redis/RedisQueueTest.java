package io.github.workqueue.redis;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

import io.github.workqueue.core.AddOptions;
import io.github.workqueue.core.FakeClock;
import io.github.workqueue.core.WorkQueue;
import io.lettuce.core.api.StatefulRedisConnection;
import io.lettuce.core.api.sync.RedisCommands;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.json.JsonMapper;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.awaitility.Awaitility.await;

/**
 * What the Redis queue adds to the contract: several instances sharing one queue, leases
 * and their expiry, fencing, parking, codecs and instance shutdown. Each "instance" is a
 * queue object of its own with its own holder name, as separate processes would have.
 */
class RedisQueueTest {

	private final FakeClock clock = new FakeClock();

	private final String name = TestRedis.uniqueName("redis");

	private final List<RedisQueue<?>> queues = new ArrayList<>();

	@AfterEach
	void shutDown() {
		this.queues.forEach(WorkQueue::shutDown);
	}

	private RedisQueueBuilder builder(String holder) {
		return RedisQueue.builder(RedisQueueConnection.of(TestRedis.client()), this.name)
			.holder(holder)
			.timeForTests(this.clock)
			.leaseDuration(Duration.ofSeconds(10));
	}

	private RedisQueue<String> instance(String holder) {
		return track(builder(holder).build(ItemCodec.strings()));
	}

	private <T> RedisQueue<T> track(RedisQueue<T> queue) {
		this.queues.add(queue);
		return queue;
	}

	private static <T> T take(WorkQueue<T> queue) throws InterruptedException {
		Optional<T> item = queue.get(Duration.ofSeconds(5));
		assertThat(item).as("an item is ready").isPresent();
		return item.get();
	}

	@Test
	void aLaterAddOfTheSameThreadShouldFollowItsDoneWithoutWaiting() throws Exception {
		RedisQueue<String> queue = instance("a");
		queue.add("x");
		assertThat(take(queue)).isEqualTo("x");
		queue.add("x");
		queue.doneWithoutWaiting("x");
		queue.add("y");
		// done then add: x, requeued by its done, is ahead of y.
		assertThat(take(queue)).isEqualTo("x");
		queue.doneWithoutWaiting("x");
		queue.add("x");
		assertThat(take(queue)).isEqualTo("y");
		assertThat(take(queue)).as("added after its done: queued once, behind y").isEqualTo("x");
		queue.doneWithoutWaiting("y");
		queue.doneWithoutWaiting("x");
		assertThat(queue.len()).isZero();
		assertThat(queue.stats().inFlight()).isZero();
	}

	@Test
	void donesOnTheirWayShouldReachRedisBeforeShutdownReturnsAndTheConnectionCloses() throws Exception {
		RedisQueueConnection connection = RedisQueueConnection.of(TestRedis.client());
		RedisQueue<String> queue = RedisQueue.builder(connection, this.name)
			.holder("closing")
			.leaseDuration(Duration.ofSeconds(10))
			.build(ItemCodec.strings());
		RedisQueue<String> observer = instance("observer");
		for (int i = 0; i < 50; i++) {
			queue.add("item-" + i);
		}
		for (int i = 0; i < 50; i++) {
			queue.doneWithoutWaiting(take(queue));
		}

		queue.shutDown();
		connection.close();

		assertThat(observer.stats().inFlight()).as("every done was applied").isZero();
		assertThat(observer.len()).isZero();
	}

	@Test
	void aDoneWithoutWaitingShouldBeSeenByAReadOnAnotherThreadThatFollowsIt() throws Exception {
		RedisQueue<String> queue = instance("a");
		queue.add("x");
		ExecutorService worker = Executors.newSingleThreadExecutor();
		try {
			worker.submit(() -> {
				String item = take(queue);
				queue.add(item);
				queue.doneWithoutWaiting(item);
				return null;
			}).get(10, TimeUnit.SECONDS);
		}
		finally {
			worker.shutdownNow();
		}
		assertThat(queue.len()).as("the item added while processing is queued again by the done").isEqualTo(1);
		assertThat(queue.stats().inFlight()).isZero();
	}

	@Test
	void aGetWithATimeoutShouldReturnSoonAfterItOnAnEmptyQueue() throws Exception {
		// Real time, so that a short ask makes the takers wait for a hint or the longest
		// block (1 s): a get must still end at its own timeout, not at the next poll.
		RedisQueue<String> queue = track(
				RedisQueue.builder(RedisQueueConnection.of(TestRedis.client()), this.name).build(ItemCodec.strings()));
		List<CompletableFuture<Long>> getters = new ArrayList<>();
		for (int thread = 0; thread < 3; thread++) {
			getters.add(CompletableFuture.supplyAsync(() -> {
				long start = System.nanoTime();
				for (int i = 0; i < 5; i++) {
					try {
						assertThat(queue.get(Duration.ofMillis(100))).isEmpty();
					}
					catch (InterruptedException ex) {
						throw new IllegalStateException(ex);
					}
				}
				return (System.nanoTime() - start) / 1_000_000;
			}));
		}
		for (CompletableFuture<Long> getter : getters) {
			// Five gets of 100 ms: well under the 5 s that five waits for the next poll
			// would take, even on a busy machine.
			assertThat(getter.get(30, TimeUnit.SECONDS)).as("milliseconds for five gets of 100 ms").isLessThan(4000);
		}
	}

	@Test
	void aHintThatFindsNoTakerShouldBePassedOnForAnotherInstance() throws InterruptedException {
		// Real time: an instance's pop for a hint blocks for up to 1 s, long enough to be
		// the only one listening when the add comes.
		RedisQueue<String> idle = track(RedisQueue.builder(RedisQueueConnection.of(TestRedis.client()), this.name)
			.holder("idle")
			.build(ItemCodec.strings()));
		RedisQueue<String> producer = track(RedisQueue.builder(RedisQueueConnection.of(TestRedis.client()), this.name)
			.holder("producer")
			.build(ItemCodec.strings()));
		try (StatefulRedisConnection<String, String> connection = TestRedis.client().connect()) {
			hintPassedOn(connection.sync(), idle, producer);
		}
	}

	private void hintPassedOn(RedisCommands<String, String> redis, RedisQueue<String> idle, RedisQueue<String> producer)
			throws InterruptedException {
		long blockedBefore = infoField(redis, "clients", "blocked_clients:");
		// The idle instance's taker found nothing and gave up; its pop for a hint goes
		// on.
		assertThat(idle.get(Duration.ofMillis(300))).isEmpty();
		await().atMost(Duration.ofSeconds(10))
			.pollInterval(Duration.ofMillis(2))
			.until(() -> infoField(redis, "clients", "blocked_clients:") > blockedBefore);
		producer.add("x");
		// The add's script pushes a hint, the idle instance's pop takes it and, with no
		// taker waiting there, its sender pushes it again for the others.
		await().atMost(Duration.ofSeconds(10))
			.until(() -> infoField(redis, "clients", "blocked_clients:") == blockedBefore);
		await().atMost(Duration.ofSeconds(10))
			.untilAsserted(() -> assertThat(redis.keys("*" + this.name + "*:wake")).singleElement()
				.satisfies((wake) -> assertThat(redis.llen(wake)).as("the hint passed on waits for a taker")
					.isEqualTo(1)));
	}

	/**
	 * A whole number after {@code prefix} at a line's start in an {@code INFO} section.
	 */
	private static long infoField(RedisCommands<String, String> redis, String section, String prefix) {
		for (String line : redis.info(section).split("\\r?\\n")) {
			if (line.startsWith(prefix)) {
				String rest = line.substring(prefix.length());
				int end = 0;
				while (end < rest.length() && Character.isDigit(rest.charAt(end))) {
					end++;
				}
				return Long.parseLong(rest.substring(0, end));
			}
		}
		return 0;
	}

	@Test
	void instancesShouldShareOneQueueWithDedup() throws InterruptedException {
		RedisQueue<String> a = instance("a");
		RedisQueue<String> b = instance("b");
		a.add("x");
		b.add("x");
		b.add("y");
		assertThat(a.len()).isEqualTo(2);
		assertThat(take(b)).isEqualTo("x");
		assertThat(take(a)).isEqualTo("y");
		assertThat(a.get(Duration.ZERO)).isEmpty();
	}

	@Test
	void anAddFromAnotherInstanceWhileProcessingShouldRunAgainAfterDone() throws InterruptedException {
		RedisQueue<String> a = instance("a");
		RedisQueue<String> b = instance("b");
		a.add("x");
		assertThat(take(b)).isEqualTo("x");
		a.add("x");
		assertThat(a.get(Duration.ZERO)).as("one holder at a time").isEmpty();
		b.done("x");
		assertThat(take(a)).isEqualTo("x");
	}

	@Test
	void anExpiredLeaseShouldRedeliverTheItemAndFenceTheOldHolder() throws InterruptedException {
		RedisQueue<String> a = instance("a");
		RedisQueue<String> b = instance("b");
		a.add("x");
		assertThat(take(a)).isEqualTo("x");
		long token = a.lease("x").orElseThrow().token();
		this.clock.step(Duration.ofSeconds(11));
		assertThat(take(b)).as("redelivered after the lease expired").isEqualTo("x");
		assertThat(b.lease("x").orElseThrow().token()).isGreaterThan(token);
		a.done("x");
		assertThat(b.stats().rejectedDones()).as("the stale holder's done is rejected").isEqualTo(1);
		assertThat(b.stats().inFlight()).as("and does not end b's lease").isEqualTo(1);
		assertThat(b.stats().redeliveries()).isEqualTo(1);
		b.done("x");
		assertThat(b.stats()).isEqualTo(new RedisQueueStats(0, 0, 0, 0, 1, 1, 0));
	}

	@Test
	void aStaleWorkersDoneShouldNotEndTheLeaseOfTheSameInstancesNewerProcessing() throws InterruptedException {
		RedisQueue<String> a = instance("a");
		a.add("x");
		take(a);
		long stale = a.lease("x").orElseThrow().token();
		this.clock.step(Duration.ofSeconds(11));
		assertThat(take(a)).as("redelivered to the same instance while its first processing runs on").isEqualTo("x");
		assertThat(a.lease("x").orElseThrow().token()).as("the live lease").isGreaterThan(stale);
		a.done("x");
		assertThat(a.stats().rejectedDones()).as("the first done is the stale worker's: fenced").isEqualTo(1);
		assertThat(a.stats().inFlight()).as("the newer processing keeps its lease").isEqualTo(1);
		a.done("x");
		assertThat(a.stats().inFlight()).isZero();
		assertThat(a.stats().rejectedDones()).isEqualTo(1);
	}

	@Test
	void aLeaseShouldNotBeRenewedOnceExpired() throws InterruptedException {
		RedisQueue<String> a = instance("a");
		a.add("x");
		take(a);
		this.clock.step(Duration.ofSeconds(11));
		a.done("x");
		assertThat(a.stats().rejectedDones()).isEqualTo(1);
	}

	@Test
	void anItemWhoseLeasesKeepExpiringShouldBeParked() throws InterruptedException {
		RedisQueue<String> a = track(builder("a").maxRedeliveries(1).build(ItemCodec.strings()));
		a.add("poison");
		take(a);
		this.clock.step(Duration.ofSeconds(11));
		assertThat(take(a)).as("first expiry: delivered again").isEqualTo("poison");
		this.clock.step(Duration.ofSeconds(11));
		assertThat(a.get(Duration.ZERO)).as("second expiry in a row: parked").isEmpty();
		assertThat(a.parked()).containsOnlyKeys("poison");
		assertThat(a.parked().get("poison")).contains("lease expired 2 times");
		assertThat(a.stats().parked()).isEqualTo(1);
		a.add("poison");
		assertThat(a.parked()).as("an add brings it back").isEmpty();
		assertThat(take(a)).isEqualTo("poison");
	}

	@Test
	void aParkedItemShouldBeRequeuedOrDroppedOnRequest() throws InterruptedException {
		RedisQueue<String> a = track(builder("a").maxRedeliveries(0).build(ItemCodec.strings()));
		a.add("p1");
		a.add("p2");
		take(a);
		take(a);
		this.clock.step(Duration.ofSeconds(11));
		assertThat(a.get(Duration.ZERO)).isEmpty();
		assertThat(a.parked()).containsOnlyKeys("p1", "p2");
		assertThat(a.requeueParked("p1")).isTrue();
		assertThat(a.dropParked("p2")).isTrue();
		assertThat(a.dropParked("p2")).as("no longer parked").isFalse();
		assertThat(a.parked()).isEmpty();
		assertThat(take(a)).isEqualTo("p1");
		assertThat(a.get(Duration.ZERO)).isEmpty();
	}

	@Test
	void inFlightShouldListEveryInstancesLeases() throws InterruptedException {
		RedisQueue<String> a = instance("a");
		RedisQueue<String> b = instance("b");
		a.add("x");
		a.add("y");
		take(a);
		take(b);
		assertThat(a.inFlight()).extracting(InFlightItem::item, InFlightItem::holder)
			.containsExactlyInAnyOrder(org.assertj.core.groups.Tuple.tuple("x", "a"),
					org.assertj.core.groups.Tuple.tuple("y", "b"));
		InFlightItem x = a.inFlight().stream().filter((item) -> item.item().equals("x")).findFirst().orElseThrow();
		assertThat(x.token()).isEqualTo(a.lease("x").orElseThrow().token());
		assertThat(Duration.between(x.grantedAt(), x.expiresAt())).isEqualTo(Duration.ofSeconds(10));
	}

	@Test
	void aDoneShouldResetTheExpiriesInARow() throws InterruptedException {
		RedisQueue<String> a = track(builder("a").maxRedeliveries(1).build(ItemCodec.strings()));
		a.add("x");
		take(a);
		this.clock.step(Duration.ofSeconds(11));
		take(a);
		a.done("x"); // the first processing's done: its lease had expired
		a.done("x"); // the second's: this one ends a live lease
		a.add("x");
		take(a);
		this.clock.step(Duration.ofSeconds(11));
		assertThat(take(a)).isEqualTo("x");
		assertThat(a.parked()).isEmpty();
	}

	@Test
	void leasesShouldBeRenewedWhileTheItemIsProcessing() throws InterruptedException {
		RedisQueue<String> a = track(RedisQueue.builder(RedisQueueConnection.of(TestRedis.client()), this.name)
			.holder("a")
			.leaseDuration(Duration.ofMillis(300))
			.build(ItemCodec.strings()));
		a.add("x");
		take(a);
		long firstDeadline = a.lease("x").orElseThrow().expiresAt().toEpochMilli();
		Thread.sleep(1000); // real time: three lease durations, renewed every 100ms
		Lease lease = a.lease("x").orElseThrow();
		assertThat(lease.lost()).isFalse();
		assertThat(a.inFlight()).extracting(InFlightItem::holder).containsExactly(a.holder()).containsExactly("a");
		assertThat(lease.expiresAt().toEpochMilli()).isGreaterThan(firstDeadline);
		assertThat(a.stats().redeliveries()).isZero();
		a.done("x");
		assertThat(a.stats().rejectedDones()).isZero();
	}

	@Test
	void anInstanceShuttingDownShouldGiveItsLeasesBackAtOnce() throws InterruptedException {
		RedisQueue<String> a = instance("a");
		RedisQueue<String> b = instance("b");
		a.add("x");
		a.add("y");
		a.addAfter("later", Duration.ofSeconds(5));
		assertThat(take(a)).isEqualTo("x");
		assertThat(a.shutDownWithDrain(Duration.ofMillis(10))).as("x is not done").isFalse();
		assertThat(b.isShuttingDown()).as("the shared queue keeps running").isFalse();
		assertThat(take(b)).as("x is back at the head").isEqualTo("x");
		assertThat(take(b)).isEqualTo("y");
		assertThat(b.waitingLen()).as("waiting items persist").isEqualTo(1);
		assertThat(b.stats().redeliveries()).as("a release is not a redelivery").isZero();
		a.done("x");
		assertThat(b.lease("x")).isPresent();
	}

	@Test
	void aLeaseGivenBackShouldGoToTheHeadOfItsPriority() throws InterruptedException {
		RedisQueue<String> a = instance("a");
		RedisQueue<String> b = instance("b");
		a.add("z");
		assertThat(take(a)).isEqualTo("z");
		b.add("a");
		b.add("b");
		b.add("high", AddOptions.priority(5));
		assertThat(a.shutDownWithDrain(Duration.ofMillis(10))).as("z is not done").isFalse();
		assertThat(b.lenByPriority()).containsExactly(Map.entry(5, 1), Map.entry(0, 3));
		assertThat(take(b)).isEqualTo("high");
		assertThat(take(b)).as("z is back at the head of priority 0").isEqualTo("z");
		assertThat(take(b)).isEqualTo("a");
		assertThat(take(b)).isEqualTo("b");
	}

	@Test
	void itemsOfThePlainListShouldKeepTheirOrderWhenAnInstanceWithFairnessAddsOneWithKeys()
			throws InterruptedException {
		RedisQueue<String> plain = instance("plain");
		RedisQueue<String> fair = track(
				builder("fair").fairness((String item) -> List.of("tenant")).build(ItemCodec.strings()));
		plain.add("a");
		plain.add("b");
		fair.add("c");
		assertThat(fair.lenByPriority()).containsExactly(Map.entry(0, 3));
		List<String> taken = new ArrayList<>();
		for (int i = 0; i < 3; i++) {
			taken.add(take(plain));
			plain.done(taken.get(i));
		}
		assertThat(taken).as("the list's items are one group beside the key, in their order")
			.containsExactly("a", "c", "b");
	}

	@Test
	void itemsWithoutKeysShouldKeepTheirOrderWhenAnInstanceWithFairnessAddsOneWithKeys() throws InterruptedException {
		RedisQueue<String> plain = instance("plain");
		RedisQueue<String> fair = track(
				builder("fair").fairness((String item) -> List.of("tenant")).build(ItemCodec.strings()));
		plain.add("a");
		plain.add("b", AddOptions.priority(5));
		plain.add("c");
		assertThat(plain.lenByPriority()).containsExactly(Map.entry(5, 1), Map.entry(0, 2));
		fair.add("d");
		assertThat(fair.lenByPriority()).containsExactly(Map.entry(5, 1), Map.entry(0, 3));
		List<String> taken = new ArrayList<>();
		for (int i = 0; i < 4; i++) {
			taken.add(take(plain));
			plain.done(taken.get(i));
		}
		assertThat(taken).as("the items without keys are one group beside the key, in the order they came")
			.containsExactly("b", "a", "d", "c");
		assertThat(plain.lenByPriority()).isEmpty();
	}

	@Test
	void anItemProcessingWhenItsInstanceShutsDownShouldKeepItsLeaseUntilDone() throws InterruptedException {
		RedisQueue<String> a = instance("a");
		RedisQueue<String> b = instance("b");
		a.add("x");
		assertThat(take(a)).isEqualTo("x");
		a.shutDown();
		assertThat(b.get(Duration.ZERO)).as("still a's").isEmpty();
		a.add("x");
		assertThat(b.stats().queued()).as("a refuses adds once shut down").isZero();
		b.add("x");
		a.done("x");
		assertThat(take(b)).as("b's add runs after a's done").isEqualTo("x");
		assertThat(b.stats().rejectedDones()).isZero();
	}

	@Test
	void aDrainAfterShutDownShouldStillWaitForTheItemsProcessing() throws Exception {
		RedisQueue<String> a = instance("a");
		RedisQueue<String> b = instance("b");
		a.add("x");
		take(a);
		a.shutDown(); // as the worker container does, before it drains
		CompletableFuture<Boolean> drained = CompletableFuture.supplyAsync(() -> {
			try {
				return a.shutDownWithDrain(Duration.ofSeconds(30));
			}
			catch (InterruptedException ex) {
				throw new IllegalStateException(ex);
			}
		});
		assertThatExceptionOfType(TimeoutException.class).as("the drain waits for x")
			.isThrownBy(() -> drained.get(300, TimeUnit.MILLISECONDS));
		assertThat(b.get(Duration.ZERO)).as("x is not given to another instance meanwhile").isEmpty();
		a.done("x");
		assertThat(drained.get(10, TimeUnit.SECONDS)).isTrue();
		assertThat(b.stats().inFlight()).isZero();
	}

	@Test
	void recordsShouldTravelAsJsonAndUndecodableItemsBeParked() throws InterruptedException {
		JsonMapper mapper = JsonMapper.builder().build();
		RedisQueue<Key> typed = track(builder("typed").build(ItemCodec.json(mapper, Key.class)));
		RedisQueue<String> raw = track(builder("raw").build(ItemCodec.strings()));
		typed.add(new Key("default", "web"));
		typed.add(new Key("default", "web"));
		raw.add("not json");
		typed.add(new Key("kube-system", "dns"));
		assertThat(take(typed)).isEqualTo(new Key("default", "web"));
		assertThat(take(typed)).as("the undecodable item is skipped").isEqualTo(new Key("kube-system", "dns"));
		assertThat(typed.parked()).containsOnlyKeys("not json");
		assertThat(typed.parked().get("not json")).contains("cannot be decoded");
	}

	@Test
	void aCustomRateLimiterShouldBeRefusedAtBuildTime() {
		var builder = builder("a").rateLimiter(new CustomRateLimiter());
		org.assertj.core.api.Assertions.assertThatIllegalArgumentException()
			.isThrownBy(() -> builder.build(ItemCodec.strings()))
			.withMessageContaining("cannot be shared by instances on Redis");
	}

	@Test
	void delaysShouldUseRedisTime() throws InterruptedException {
		RedisQueue<String> a = track(RedisQueue.builder(RedisQueueConnection.of(TestRedis.client()), this.name)
			.holder("a")
			.build(ItemCodec.strings()));
		long start = System.nanoTime();
		a.addAfter("x", Duration.ofMillis(200));
		assertThat(a.get(Duration.ofSeconds(10))).contains("x");
		assertThat(System.nanoTime() - start).isGreaterThanOrEqualTo(Duration.ofMillis(200).toNanos());
	}

	record Key(String namespace, String name) {
	}

}
