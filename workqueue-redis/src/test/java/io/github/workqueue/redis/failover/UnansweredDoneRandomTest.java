package io.github.workqueue.redis.failover;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Random;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.logging.Level;
import java.util.logging.Logger;

import io.github.workqueue.redis.DoneResult;
import io.github.workqueue.redis.ItemCodec;
import io.github.workqueue.redis.LateDoneOutcome;
import io.github.workqueue.redis.Lease;
import io.github.workqueue.redis.RedisQueue;
import io.github.workqueue.redis.RedisQueueConnection;
import io.github.workqueue.redis.TestRedis;
import io.lettuce.core.RedisURI;
import io.lettuce.core.api.StatefulRedisConnection;
import io.lettuce.core.api.sync.RedisCommands;
import org.awaitility.core.ConditionTimeoutException;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Dones through a flapping network: three instances, each behind its own
 * {@link FaultProxy} that holds requests, replies or both for random lengths (shorter and
 * longer than the lease) and resets connections, each with its own command timeout, while
 * a producer adds a few hundred items. Every done's final outcome is checked against
 * Redis's own record of it, read when the outcome was learned: an accepted done's token
 * is among the ended leases, a rejected one's among the rejected, never both. The
 * queue-wide count of rejected dones equals the number of dones Redis rejected, no item
 * whose done Redis applied is delivered again, and every item ends with a done Redis
 * applied (its outcome may be never known to the instance: a reply held longer than the
 * done is asked).
 *
 * <p>
 * {@code -Dworkqueue.unanswered.seed=N} replays a run; {@code .items=N} sizes it.
 */
class UnansweredDoneRandomTest {

	/** Quieted during the run: a few hundred dones and outages log a line each. */
	private static final Logger QUEUE_LOG = Logger.getLogger(RedisQueue.class.getName());

	private static final Duration LEASE = Duration.ofSeconds(2);

	private static final int INSTANCES = 3;

	private static final int WORKERS = 3;

	private static final int ITEMS = Integer.getInteger("workqueue.unanswered.items", 240);

	private static final long CHAOS_MILLIS = 20_000;

	private final long seed = Long.getLong("workqueue.unanswered.seed", new Random().nextLong());

	private final String name = TestRedis.uniqueName("unanswered-random");

	private final String tag = "{workqueue:" + this.name + "}:";

	private final StatefulRedisConnection<String, String> directConnection = TestRedis.client().connect();

	private final RedisCommands<String, String> direct = this.directConnection.sync();

	private final List<Instance> instances = new ArrayList<>();

	private final List<Thread> threads = new ArrayList<>();

	/**
	 * Per token, what its done returned and what Redis recorded when the outcome came.
	 */
	private final Map<Long, DoneRecord> dones = new ConcurrentHashMap<>();

	/** Every grant a worker received: item and token. */
	private final List<long[]> grants = new CopyOnWriteArrayList<>();

	private final Map<String, Integer> itemIndex = new ConcurrentHashMap<>();

	private final List<LateDoneOutcome> late = new CopyOnWriteArrayList<>();

	private volatile boolean stopping;

	private volatile boolean chaosOver;

	private Level levelBefore;

	@BeforeEach
	void quiet() {
		this.levelBefore = QUEUE_LOG.getLevel();
		QUEUE_LOG.setLevel(Level.SEVERE);
	}

	@AfterEach
	void stop() throws InterruptedException {
		this.stopping = true;
		this.chaosOver = true;
		for (Thread thread : this.threads) {
			thread.join(10_000);
		}
		for (Instance instance : this.instances) {
			instance.queue.shutDown();
			instance.proxy.close();
		}
		this.directConnection.close();
		QUEUE_LOG.setLevel(this.levelBefore);
	}

	@Test
	void everyOutcomeShouldBeRedisOwnAndEveryRejectionCountedOnce() throws Exception {
		System.out.println("UnansweredDoneRandomTest seed " + this.seed);
		Random random = new Random(this.seed);
		for (int i = 0; i < INSTANCES; i++) {
			this.instances.add(new Instance(i, Duration.ofMillis(400 + random.nextInt(800)), random.nextLong()));
		}
		for (Instance instance : this.instances) {
			for (int w = 0; w < WORKERS; w++) {
				start("worker-" + instance.index + "-" + w, () -> work(instance, new Random(random.nextLong())));
			}
			start("chaos-" + instance.index, () -> chaos(instance));
		}
		RedisQueue<String> producer = RedisQueue.builder(RedisQueueConnection.of(TestRedis.client()), this.name)
			.leaseDuration(LEASE)
			.maxRedeliveries(1000)
			.build(ItemCodec.strings());
		try {
			for (int i = 0; i < ITEMS; i++) {
				String item = "item-" + i;
				this.itemIndex.put(item, i);
				producer.add(item);
				Thread.sleep(CHAOS_MILLIS / ITEMS);
			}
			this.chaosOver = true;
			this.instances.forEach((instance) -> instance.proxy.heal());
			try {
				await().atMost(Duration.ofSeconds(90))
					.until(() -> acceptedItems().size() == ITEMS
							&& this.dones.values().stream().allMatch((done) -> done.observed != null));
			}
			catch (ConditionTimeoutException ex) {
				throw new AssertionError(unfinished(), ex);
			}

			check(producer.stats().rejectedDones());
		}
		finally {
			producer.shutDown();
		}
	}

	private void check(long countedRejections) {
		int rejectedByRedis = 0;
		int neverKnown = 0;
		int answeredLate = 0;
		for (DoneRecord done : this.dones.values()) {
			Observed observed = done.observed;
			assertThat(observed.ended && observed.rejected).as("token %d both ended and rejected", done.token)
				.isFalse();
			if (done.immediate != DoneResult.NO_ANSWER) {
				assertThat(observed.outcome).as("the final outcome of a done answered in time, token %d", done.token)
					.isEqualTo(done.immediate);
			}
			else {
				answeredLate++;
			}
			switch (observed.outcome) {
				case ACCEPTED -> assertThat(observed.ended).as("accepted done %d is Redis's", done.token).isTrue();
				case REJECTED -> assertThat(observed.rejected).as("rejected done %d is Redis's", done.token).isTrue();
				case NO_ANSWER -> neverKnown++;
			}
			if (observed.rejected) {
				rejectedByRedis++;
			}
		}
		assertThat(this.late).as("one late outcome per done that got no answer in time").hasSize(answeredLate);
		for (long[] grant : this.grants) {
			DoneRecord accepted = acceptedDoneOf((int) grant[0]);
			if (accepted != null) {
				assertThat(grant[1]).as("a grant of item-%d after Redis applied its done", grant[0])
					.isLessThanOrEqualTo(accepted.token);
			}
		}
		System.out.printf(
				"UnansweredDoneRandomTest: %d dones (%d answered late, %d never known), %d rejected by Redis, "
						+ "%d counted, %d grants for %d items%n",
				this.dones.size(), answeredLate, neverKnown, rejectedByRedis, countedRejections, this.grants.size(),
				ITEMS);
		assertThat(countedRejections).as("counted rejections against Redis's record")
			.isBetween((long) rejectedByRedis, (long) rejectedByRedis + neverKnown);
		assertThat(this.dones.size()).as("dones made").isGreaterThanOrEqualTo(ITEMS);
	}

	/**
	 * What the run still waits for: items without an accepted done, dones without an
	 * outcome.
	 */
	private String unfinished() {
		Set<Integer> accepted = acceptedItems();
		StringBuilder text = new StringBuilder("seed " + this.seed + "; items without an accepted done:");
		for (int item = 0; item < ITEMS; item++) {
			if (!accepted.contains(item)) {
				int index = item;
				text.append("\n  item-")
					.append(item)
					.append(" grants ")
					.append(this.grants.stream().filter((grant) -> grant[0] == index).map((grant) -> grant[1]).toList())
					.append(" dones ")
					.append(this.dones.values()
						.stream()
						.filter((done) -> done.item == index)
						.map((done) -> done.token + "=" + done.immediate + "/"
								+ ((done.observed != null) ? done.observed : "unknown yet"))
						.toList());
			}
		}
		text.append("\ndones without an outcome: ")
			.append(this.dones.values()
				.stream()
				.filter((done) -> done.observed == null)
				.map((done) -> done.token)
				.toList());
		this.instances.forEach((instance) -> text.append("\n  ")
			.append(instance.queue.holder())
			.append(" in flight ")
			.append(instance.queue.inFlight()));
		return text.toString();
	}

	/**
	 * The items a done of which Redis applied (whether or not the instance learned it).
	 */
	private Set<Integer> acceptedItems() {
		Set<Integer> items = ConcurrentHashMap.newKeySet();
		this.dones.values()
			.stream()
			.filter((done) -> done.observed != null && done.observed.ended)
			.forEach((done) -> items.add(done.item));
		return items;
	}

	/** The done of the item that Redis applied: accepted, or never known but recorded. */
	private DoneRecord acceptedDoneOf(int item) {
		return this.dones.values()
			.stream()
			.filter((done) -> done.item == item && done.observed.ended)
			.findFirst()
			.orElse(null);
	}

	private void work(Instance instance, Random random) {
		while (!this.stopping) {
			Optional<String> taken;
			try {
				taken = instance.queue.get(Duration.ofMillis(200));
			}
			catch (InterruptedException ex) {
				return;
			}
			catch (RuntimeException ex) {
				continue;
			}
			if (taken.isEmpty()) {
				continue;
			}
			String item = taken.get();
			int index = this.itemIndex.get(item);
			Lease lease = instance.queue.lease(item).orElseThrow();
			this.grants.add(new long[] { index, lease.token() });
			try {
				// Work long enough for a stall to start before the done.
				Thread.sleep(random.nextInt(1000));
			}
			catch (InterruptedException ex) {
				return;
			}
			DoneRecord record = new DoneRecord(index, lease.token(), instance.queue.done(lease));
			this.dones.put(lease.token(), record);
			lease.outcome().whenComplete((outcome, failure) -> record.observed = observe(item, lease, outcome));
		}
	}

	/** Reads Redis's record of a lease's done, as the outcome is learned. */
	private Observed observe(String item, Lease lease, DoneResult outcome) {
		String token = Long.toString(lease.token());
		boolean ended = this.direct.hexists(this.tag + "ended", token)
				|| this.direct.hexists(this.tag + "ended-before", token);
		String field = token + " " + item;
		boolean rejected = this.direct.hexists(this.tag + "ended:rejected", field)
				|| this.direct.hexists(this.tag + "ended-before:rejected", field);
		return new Observed(outcome, ended, rejected);
	}

	private void chaos(Instance instance) {
		Random random = new Random(instance.seed);
		try {
			while (!this.chaosOver) {
				Thread.sleep(100 + random.nextInt(700));
				int action = random.nextInt(10);
				if (action == 9) {
					instance.proxy.reset();
					continue;
				}
				instance.proxy.holdRequests(action < 6);
				instance.proxy.holdReplies(action < 3 || action >= 6);
				Thread.sleep(300 + random.nextInt(3700));
				instance.proxy.heal();
			}
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
		}
		finally {
			instance.proxy.heal();
		}
	}

	private void start(String threadName, Runnable task) {
		Thread thread = new Thread(task, threadName);
		thread.setDaemon(true);
		this.threads.add(thread);
		thread.start();
	}

	private final class Instance {

		final int index;

		final long seed;

		final FaultProxy proxy;

		final RedisQueue<String> queue;

		Instance(int index, Duration commandTimeout, long seed) throws Exception {
			this.index = index;
			this.seed = seed;
			this.proxy = new FaultProxy(RedisURI.create(TestRedis.uri()));
			this.queue = RedisQueue.builder(this.proxy.connection(commandTimeout), UnansweredDoneRandomTest.this.name)
				.holder("instance-" + index)
				.leaseDuration(LEASE)
				.maxRedeliveries(1000)
				.lateDoneListener(UnansweredDoneRandomTest.this.late::add)
				.build(ItemCodec.strings());
		}

	}

	private static final class DoneRecord {

		final int item;

		final long token;

		final DoneResult immediate;

		volatile Observed observed;

		DoneRecord(int item, long token, DoneResult immediate) {
			this.item = item;
			this.token = token;
			this.immediate = immediate;
		}

	}

	private record Observed(DoneResult outcome, boolean ended, boolean rejected) {
	}

}
