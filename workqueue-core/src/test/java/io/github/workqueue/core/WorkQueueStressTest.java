package io.github.workqueue.core;

import java.lang.management.ManagementFactory;
import java.lang.management.MonitorInfo;
import java.lang.management.ThreadInfo;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicLongArray;
import java.util.concurrent.atomic.AtomicReferenceArray;

import org.junit.jupiter.api.RepeatedTest;

import io.github.workqueue.core.metrics.RecordingMetricsProvider;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Many producers and consumers on one queue, checking client-go's guarantees as they run:
 * no item is ever held by two consumers at once, and every add that the queue accepted is
 * followed by a processing that starts after it; {@code len()} and {@code waitingLen()}
 * stay within bounds while it runs, and the gauges are zero at quiescence. Both shutdown
 * modes.
 */
class WorkQueueStressTest {

	private static final int PRODUCERS = 50;

	private static final int CONSUMERS = 10;

	private static final int KEYS = 200;

	private static final int ADDS_PER_PRODUCER = 2_000;

	private static final Duration JOIN_TIMEOUT = Duration.ofSeconds(60);

	/** A global order of events: adds and processing starts take numbers from it. */
	private final AtomicLong sequence = new AtomicLong();

	private final AtomicReferenceArray<Thread> holders = new AtomicReferenceArray<>(KEYS);

	private final AtomicLongArray lastAcceptedAdd = new AtomicLongArray(KEYS);

	private final AtomicLongArray lastProcessingStart = new AtomicLongArray(KEYS);

	private final Queue<String> violations = new ConcurrentLinkedQueue<>();

	private final AtomicInteger processed = new AtomicInteger();

	@RepeatedTest(3)
	void invariantsShouldHoldUnderContentionWithShutDown() throws Exception {
		run(false, WorkQueue.builder().build());
	}

	@RepeatedTest(3)
	void invariantsShouldHoldUnderContentionWithShutDownWithDrain() throws Exception {
		run(true, WorkQueue.builder().build());
	}

	@RepeatedTest(2)
	void invariantsShouldHoldForARateLimitingQueueWithMetricsAndDelays() throws Exception {
		RecordingMetricsProvider metrics = new RecordingMetricsProvider();
		RateLimitingQueue<Integer> queue = WorkQueue.builder()
			.name("stress")
			.metricsProvider(metrics)
			.buildRateLimiting();
		run(true, queue);
		assertThat(metrics.depth("stress")).as("depth gauge at quiescence").isZero();
		assertThat(metrics.waiting("stress")).as("waiting gauge at quiescence").isZero();
	}

	private void run(boolean drain, WorkQueue<Integer> queue) throws Exception {
		for (int key = 0; key < KEYS; key++) {
			this.lastAcceptedAdd.set(key, -1);
			this.lastProcessingStart.set(key, -1);
		}
		CountDownLatch start = new CountDownLatch(1);
		List<Thread> producers = new ArrayList<>();
		for (int p = 0; p < PRODUCERS; p++) {
			producers.add(startThread("producer-" + p, () -> {
				await(start);
				ThreadLocalRandom random = ThreadLocalRandom.current();
				for (int i = 0; i < ADDS_PER_PRODUCER; i++) {
					int key = random.nextInt(KEYS);
					if (queue instanceof DelayingQueue<Integer> delaying && random.nextInt(10) == 0) {
						addAfterRecorded(delaying, key, Duration.ofNanos(random.nextInt(1_000_000)));
					}
					else {
						addRecorded(queue, key);
					}
				}
			}));
		}
		List<Thread> consumers = new ArrayList<>();
		for (int c = 0; c < CONSUMERS; c++) {
			consumers.add(startThread("consumer-" + c, () -> consume(queue)));
		}
		AtomicBoolean running = new AtomicBoolean(true);
		Thread sampler = startThread("sampler", () -> sample(queue, running));
		start.countDown();
		joinAll(producers);
		if (queue instanceof DelayingQueue<Integer> delaying) {
			while (delaying.waitingLen() > 0) {
				Thread.onSpinWait();
			}
		}
		if (drain) {
			assertThat(queue.shutDownWithDrain(Duration.ofSeconds(30))).isTrue();
		}
		else {
			queue.shutDown();
		}
		joinAll(consumers);
		running.set(false);
		joinAll(List.of(sampler));

		assertThat(this.violations).isEmpty();
		assertThat(queue.len()).isZero();
		assertThat(queue.get(Duration.ZERO)).isEmpty();
		assertThat(this.processed.get()).isPositive();
		for (int key = 0; key < KEYS; key++) {
			assertThat(this.lastProcessingStart.get(key)).as("key %d: processed after its last accepted add", key)
				.isGreaterThan(this.lastAcceptedAdd.get(key));
			assertThat(this.holders.get(key)).isNull();
		}
	}

	/** Reads the sizes while the queue runs: never negative, never more than the keys. */
	private void sample(WorkQueue<Integer> queue, AtomicBoolean running) {
		while (running.get()) {
			int len = queue.len();
			if (len < 0 || len > KEYS) {
				this.violations.add("len() = " + len);
			}
			if (queue instanceof DelayingQueue<Integer> delaying) {
				int waiting = delaying.waitingLen();
				if (waiting < 0 || waiting > KEYS) {
					this.violations.add("waitingLen() = " + waiting);
				}
			}
			Thread.yield();
		}
	}

	private void consume(WorkQueue<Integer> queue) {
		ThreadLocalRandom random = ThreadLocalRandom.current();
		try {
			Optional<Integer> next;
			while ((next = queue.get()).isPresent()) {
				int key = next.get();
				Thread me = Thread.currentThread();
				if (!this.holders.compareAndSet(key, null, me)) {
					this.violations.add("key " + key + " handed to " + me.getName() + " while held by "
							+ this.holders.get(key).getName());
				}
				this.lastProcessingStart.accumulateAndGet(key, this.sequence.incrementAndGet(), Math::max);
				if (random.nextInt(4) == 0) {
					addRecorded(queue, key);
				}
				if (random.nextInt(8) == 0) {
					Thread.yield();
				}
				this.processed.incrementAndGet();
				this.holders.compareAndSet(key, me, null);
				queue.done(key);
			}
		}
		catch (InterruptedException ex) {
			this.violations.add("consumer interrupted");
		}
	}

	/**
	 * Adds and records the add as accepted when the queue was not shutting down after it;
	 * an add that was dropped cannot pass that check, since shutdown is final.
	 */
	private void addRecorded(WorkQueue<Integer> queue, int key) {
		long at = this.sequence.incrementAndGet();
		queue.add(key);
		if (!queue.isShuttingDown()) {
			this.lastAcceptedAdd.accumulateAndGet(key, at, Math::max);
		}
	}

	/**
	 * Like {@link #addRecorded}: the delayed add happens after the call, so a processing
	 * that starts after it also starts after the number taken before the call.
	 */
	private void addAfterRecorded(DelayingQueue<Integer> queue, int key, Duration delay) {
		long at = this.sequence.incrementAndGet();
		queue.addAfter(key, delay);
		if (!queue.isShuttingDown()) {
			this.lastAcceptedAdd.accumulateAndGet(key, at, Math::max);
		}
	}

	private static Thread startThread(String name, Runnable body) {
		Thread thread = new Thread(body, name);
		thread.start();
		return thread;
	}

	/**
	 * Joins the threads; one still running after {@link #JOIN_TIMEOUT} fails the test
	 * with a dump of every thread and the monitors they hold, so that a hang shows where
	 * it is.
	 */
	private static void joinAll(List<Thread> threads) throws InterruptedException {
		for (Thread thread : threads) {
			thread.join(JOIN_TIMEOUT.toMillis());
			if (thread.isAlive()) {
				throw new AssertionError(
						thread.getName() + " did not finish within " + JOIN_TIMEOUT + "; threads:\n" + threadDump());
			}
		}
	}

	private static String threadDump() {
		StringBuilder dump = new StringBuilder();
		for (ThreadInfo info : ManagementFactory.getThreadMXBean().dumpAllThreads(true, true)) {
			dump.append(info.getThreadName()).append(' ').append(info.getThreadState());
			if (info.getLockName() != null) {
				dump.append(" on ").append(info.getLockName()).append(" owned by ").append(info.getLockOwnerName());
			}
			dump.append('\n');
			for (StackTraceElement frame : info.getStackTrace()) {
				dump.append("\tat ").append(frame).append('\n');
			}
			for (MonitorInfo monitor : info.getLockedMonitors()) {
				dump.append("\tholds ")
					.append(monitor)
					.append(" at depth ")
					.append(monitor.getLockedStackDepth())
					.append('\n');
			}
		}
		return dump.toString();
	}

	private static void await(CountDownLatch latch) {
		try {
			latch.await();
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
		}
	}

}
