package io.github.workqueue.benchmarks;

import java.time.Duration;
import java.util.Arrays;
import java.util.concurrent.DelayQueue;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import io.kubernetes.client.extended.workqueue.DefaultDelayingQueue;
import org.jspecify.annotations.Nullable;

import io.github.workqueue.benchmarks.DelayedAddBenchmark.DelayedItem;
import io.github.workqueue.core.DelayingQueue;
import io.github.workqueue.core.WorkQueue;

/**
 * Workload 4, delivery: adds N items with random delays within 10s while one consumer
 * takes them, then counts how many arrive within 10s plus a grace period, and how late
 * each arrives against its ready time (p50, p99, max). An item's ready time is the later
 * of the time it was asked for and the time addAfter was called: adding a million items
 * takes a while, and an item cannot arrive before it was added. Each queue first runs
 * {@code -DwarmUpRounds} (3) unreported rounds of 100 k keys due within one second, so
 * that its code is compiled, as JMH's warm-ups do. Not a JMH benchmark: it measures
 * delivery, not speed. Run with
 * {@code java -cp benchmarks.jar io.github.workqueue.benchmarks.DelayedArrivalMeasurement}.
 */
public final class DelayedArrivalMeasurement {

	private static final long WINDOW_NANOS = Duration.ofSeconds(10).toNanos();

	private static final long GRACE_NANOS = Duration.ofSeconds(3).toNanos();

	private static final long WARM_UP_WINDOW_NANOS = Duration.ofSeconds(1).toNanos();

	private static final int WARM_UP_ROUNDS = Integer.getInteger("warmUpRounds", 3);

	private DelayedArrivalMeasurement() {
	}

	public static void main(String[] args) throws Exception {
		// Each queue's code compiled before it is measured, as JMH's warm-ups do: 100 k
		// keys
		// due within one second, not reported.
		for (int round = 0; round < WARM_UP_ROUNDS; round++) {
			measure(100_000, new Ours(), WARM_UP_WINDOW_NANOS);
			measure(100_000, new Kubernetes(), WARM_UP_WINDOW_NANOS);
			measure(100_000, new Jdk(), WARM_UP_WINDOW_NANOS);
		}
		System.out.printf("%-22s %9s %9s %12s %12s %12s%n", "queue", "added", "arrived", "p50 late ms", "p99 late ms",
				"max late ms");
		for (int size : new int[] { 100_000, 1_000_000 }) {
			report("workqueue", size, measure(size, new Ours(), WINDOW_NANOS));
			report("kubernetesClientJava", size, measure(size, new Kubernetes(), WINDOW_NANOS));
			report("DelayQueue", size, measure(size, new Jdk(), WINDOW_NANOS));
		}
	}

	private static long[] measure(int size, Subject subject, long windowNanos) throws InterruptedException {
		long start = System.nanoTime();
		long deadline = start + windowNanos + GRACE_NANOS;
		long[] readyAt = new long[size];
		ThreadLocalRandom random = ThreadLocalRandom.current();
		for (int i = 0; i < size; i++) {
			readyAt[i] = start + 1 + random.nextLong(windowNanos);
		}
		long[] lateness = new long[size];
		long[] addedAt = new long[size];
		AtomicInteger arrived = new AtomicInteger();
		Thread consumer = new Thread(() -> {
			try {
				Integer item;
				while (arrived.get() < size && (item = subject.take(deadline)) != null) {
					lateness[arrived.get()] = System.nanoTime() - Math.max(readyAt[item], addedAt[item]);
					arrived.incrementAndGet();
					subject.done(item);
				}
			}
			catch (InterruptedException ex) {
				Thread.currentThread().interrupt();
			}
		});
		consumer.start();
		for (int i = 0; i < size; i++) {
			addedAt[i] = System.nanoTime();
			subject.addAfter(i, readyAt[i]);
		}
		while (arrived.get() < size && System.nanoTime() < deadline) {
			Thread.sleep(50);
		}
		subject.stop();
		consumer.join(2000);
		consumer.interrupt();
		return Arrays.copyOf(lateness, arrived.get());
	}

	private static void report(String name, int size, long[] lateness) {
		Arrays.sort(lateness);
		System.out.printf("%-22s %9d %9d %12.3f %12.3f %12.3f%n", name, size, lateness.length,
				percentile(lateness, 0.50), percentile(lateness, 0.99),
				(lateness.length == 0) ? Double.NaN : lateness[lateness.length - 1] / 1e6);
	}

	private static double percentile(long[] sorted, double fraction) {
		if (sorted.length == 0) {
			return Double.NaN;
		}
		return sorted[(int) Math.min(sorted.length - 1, Math.floor(fraction * sorted.length))] / 1e6;
	}

	/** A delaying queue under measurement. */
	private interface Subject {

		void addAfter(Integer item, long readyAtNanos);

		/** The next item, or null once stopped or past the deadline. */
		@Nullable Integer take(long deadlineNanos) throws InterruptedException;

		void done(Integer item);

		void stop();

	}

	private static final class Ours implements Subject {

		private final DelayingQueue<Integer> queue = WorkQueue.builder().buildDelaying();

		@Override
		public void addAfter(Integer item, long readyAtNanos) {
			this.queue.addAfter(item, Duration.ofNanos(readyAtNanos - System.nanoTime()));
		}

		@Override
		public @Nullable Integer take(long deadlineNanos) throws InterruptedException {
			return this.queue.get().orElse(null);
		}

		@Override
		public void done(Integer item) {
			this.queue.done(item);
		}

		@Override
		public void stop() {
			this.queue.shutDown();
		}

	}

	private static final class Kubernetes implements Subject {

		private final ExecutorService executor = Executors.newSingleThreadExecutor();

		private final DefaultDelayingQueue<Integer> queue = new DefaultDelayingQueue<>(this.executor);

		@Override
		public void addAfter(Integer item, long readyAtNanos) {
			this.queue.addAfter(item, Duration.ofNanos(readyAtNanos - System.nanoTime()));
		}

		@Override
		public @Nullable Integer take(long deadlineNanos) throws InterruptedException {
			return this.queue.get();
		}

		@Override
		public void done(Integer item) {
			this.queue.done(item);
		}

		@Override
		public void stop() {
			this.queue.shutDown();
			this.executor.shutdownNow();
		}

	}

	private static final class Jdk implements Subject {

		private final DelayQueue<DelayedItem> queue = new DelayQueue<>();

		@Override
		public void addAfter(Integer item, long readyAtNanos) {
			this.queue.put(new DelayedItem(item, readyAtNanos));
		}

		@Override
		public @Nullable Integer take(long deadlineNanos) throws InterruptedException {
			while (System.nanoTime() < deadlineNanos) {
				DelayedItem next = this.queue.poll(100, TimeUnit.MILLISECONDS);
				if (next != null) {
					return next.item();
				}
			}
			return null;
		}

		@Override
		public void done(Integer item) {
		}

		@Override
		public void stop() {
		}

	}

}
