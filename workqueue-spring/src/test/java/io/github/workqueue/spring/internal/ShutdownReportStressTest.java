package io.github.workqueue.spring.internal;

import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.Parameter;
import org.junit.jupiter.params.ParameterizedClass;
import org.junit.jupiter.params.provider.ValueSource;

import io.github.workqueue.core.RateLimitingQueue;
import io.github.workqueue.spring.ItemsUnfinishedAtShutdownEvent;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Shutdowns that give up while workers take and process items, with and without a pause
 * racing them, on both backends. Each round checks every item's fate: processed to the
 * end, or named in the shutdown report (on Redis, or still in Redis for the other
 * instances); no method call is decided after the container gave up (a call seen starting
 * after the report is one the report names in flight); an item reported as queued never
 * started; the count matches the report.
 */
@ParameterizedClass(name = "{0}")
@ValueSource(strings = { "memory", "redis" })
class ShutdownReportStressTest {

	private static final int ITEMS = 60;

	private static final int WORKERS = 4;

	@Parameter
	String backend;

	private final List<ContainerTestKit> kits = new ArrayList<>();

	/** Rounds whose report named items in flight: the races this test is for. */
	private int gaveUpMidWork;

	@AfterEach
	void close() throws InterruptedException {
		for (ContainerTestKit kit : this.kits) {
			kit.close();
		}
	}

	/**
	 * On Redis a worker's done does not wait for Redis (group commit), so its slot is
	 * free as soon as the method returns: longer work keeps the give-up racing methods in
	 * progress as often as on memory.
	 */
	private int workScale() {
		return this.backend.equals("redis") ? 4 : 1;
	}

	private int rounds() {
		return this.backend.equals("redis") ? 60 : 300;
	}

	@Test
	void everyItemShouldBeProcessedOrReportedWhenShutdownGivesUp() throws InterruptedException {
		roundsUntilEnoughGaveUpMidWork(false);
	}

	@Test
	void everyItemShouldBeProcessedOrReportedWhenPauseRacesShutdown() throws InterruptedException {
		roundsUntilEnoughGaveUpMidWork(true);
	}

	/**
	 * The rounds, and more (up to five times as many) while too few of them gave up
	 * mid-work: on a starved machine the workers finish more often before the give-up,
	 * and the races this test is for need to have happened, not a fixed count of tries.
	 */
	private void roundsUntilEnoughGaveUpMidWork(boolean pause) throws InterruptedException {
		int wanted = rounds() / 10;
		int round = 0;
		while (round < rounds() || (this.gaveUpMidWork <= wanted && round < 5 * rounds())) {
			round(round++, pause);
		}
		assertThat(this.gaveUpMidWork).as("rounds that gave up mid-work").isGreaterThan(wanted);
	}

	private void round(int round, boolean pause) throws InterruptedException {
		ContainerTestKit kit = new ContainerTestKit(this.backend);
		this.kits.add(kit);
		AtomicLong clock = new AtomicLong();
		Map<String, Long> started = new ConcurrentHashMap<>();
		Set<String> finished = ConcurrentHashMap.newKeySet();
		Object worker = new Object() {
			@SuppressWarnings("unused")
			void handle(String item) throws InterruptedException {
				started.put(item, clock.incrementAndGet());
				TimeUnit.MICROSECONDS.sleep(ThreadLocalRandom.current().nextInt(100, 600) * workScale());
				finished.add(item);
			}
		};
		String name = "shutdown-" + round + "-" + System.nanoTime();
		RateLimitingQueue<Object> queue = kit.queue(name, Duration.ofSeconds(30));
		DefaultQueueWorkerContainer container = kit.start(queue, worker, WORKERS, null);
		Set<String> added = new HashSet<>();
		for (int i = 0; i < ITEMS; i++) {
			added.add("item-" + i);
			queue.add("item-" + i);
		}
		Thread pauser = null;
		if (pause) {
			pauser = new Thread(container::pause);
		}
		TimeUnit.MICROSECONDS.sleep(ThreadLocalRandom.current().nextInt(0, 3000));
		if (pauser != null) {
			pauser.start();
		}
		AtomicLong reportedAt = new AtomicLong(Long.MAX_VALUE);
		kit.onEvent = (event) -> reportedAt.set(clock.incrementAndGet());
		ContainerTestKit.stop(container, Duration.ofMillis(ThreadLocalRandom.current().nextInt(0, 4)));
		if (pauser != null) {
			pauser.join();
		}
		kit.awaitWorkersEnded();
		ItemsUnfinishedAtShutdownEvent report = kit.events.isEmpty() ? null
				: (ItemsUnfinishedAtShutdownEvent) kit.events.get(0);
		List<Object> inFlight = (report != null) ? report.getInFlight() : List.of();
		List<Object> queued = (report != null) ? report.getQueued() : List.of();
		Set<Object> accounted = new HashSet<>(finished);
		accounted.addAll(inFlight);
		accounted.addAll(queued);
		if (kit.isRedis()) {
			accounted.addAll(ContainerTestKit.drain(kit.queue(name, Duration.ofSeconds(30))));
		}
		if (!inFlight.isEmpty()) {
			this.gaveUpMidWork++;
		}
		String where = "round " + round + " (pause " + pause + ")";
		assertThat(accounted).as(where + ": items neither processed nor reported").containsAll(added);
		assertThat(started.keySet()).as(where + ": items reported queued that a method started")
			.noneMatch(queued::contains);
		Set<Object> unfinished = new HashSet<>(started.keySet());
		unfinished.removeAll(finished);
		assertThat(unfinished).as(where + ": started and unfinished items the report does not name")
			.isSubsetOf(inFlight);
		// The container decides to call a method, under the slot's lock, before it gives
		// up
		// or not at all; a worker preempted between that decision and the method's first
		// line may be seen starting after the report, but only for an item the report
		// names as in flight.
		assertThat(started.entrySet()).as(where + ": a method call started after the container gave up")
			.allMatch((start) -> start.getValue() < reportedAt.get() || inFlight.contains(start.getKey()));
		assertThat(container.outcomes().unfinishedAtShutdown()).as(where + ": the count")
			.isEqualTo(inFlight.size() + queued.size());
	}

}
