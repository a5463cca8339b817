package io.github.workqueue.benchmarks;

import java.time.Duration;
import java.util.Arrays;
import java.util.Optional;
import java.util.concurrent.DelayQueue;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;

import io.kubernetes.client.extended.workqueue.DefaultDelayingQueue;

import io.github.workqueue.benchmarks.DelayedAddBenchmark.DelayedItem;
import io.github.workqueue.core.DelayingQueue;
import io.github.workqueue.core.WorkQueue;

/**
 * Workload 4, delivery: adds N items with random delays within 10s, then counts how many
 * arrive within 10s plus a grace period, and how late each arrives against its ready time
 * (p50, p99, max), with the consumer running while the items are added. Not a JMH
 * benchmark: it measures delivery, not speed. Run with
 * {@code java -cp benchmarks.jar io.github.workqueue.benchmarks.DelayedArrivalMeasurement}.
 */
public final class DelayedArrivalMeasurement {

	private static final long WINDOW_NANOS = Duration.ofSeconds(10).toNanos();

	private static final long GRACE_NANOS = Duration.ofSeconds(3).toNanos();

	private DelayedArrivalMeasurement() {
	}

	public static void main(String[] args) throws Exception {
		System.out.printf("%-22s %9s %9s %12s %12s %12s%n", "queue", "added", "arrived", "p50 late ms", "p99 late ms",
				"max late ms");
		for (int size : new int[] { 100_000, 1_000_000 }) {
			report("workqueue", size, measureOurs(size));
			report("kubernetesClientJava", size, measureKubernetes(size));
			report("DelayQueue", size, measureDelayQueue(size));
		}
	}

	private static long[] readyTimes(int size, long start) {
		long[] readyAt = new long[size];
		ThreadLocalRandom random = ThreadLocalRandom.current();
		for (int i = 0; i < size; i++) {
			readyAt[i] = start + 1 + random.nextLong(WINDOW_NANOS);
		}
		return readyAt;
	}

	private static long[] measureOurs(int size) throws InterruptedException {
		DelayingQueue<Integer> queue = WorkQueue.builder().buildDelaying();
		long start = System.nanoTime();
		long[] readyAt = readyTimes(size, start);
		long[] lateness = new long[size];
		int[] arrived = new int[1];
		Thread consumer = new Thread(() -> {
			try {
				Optional<Integer> next;
				while ((next = queue.get()).isPresent()) {
					lateness[arrived[0]++] = System.nanoTime() - readyAt[next.get()];
					queue.done(next.get());
				}
			}
			catch (InterruptedException ex) {
				Thread.currentThread().interrupt();
			}
		});
		consumer.start();
		for (int i = 0; i < size; i++) {
			queue.addAfter(i, Duration.ofNanos(readyAt[i] - System.nanoTime()));
		}
		awaitArrivals(arrived, size, start);
		queue.shutDown();
		consumer.join(1000);
		return Arrays.copyOf(lateness, arrived[0]);
	}

	private static void awaitArrivals(int[] arrived, int size, long start) throws InterruptedException {
		long deadline = start + WINDOW_NANOS + GRACE_NANOS;
		while (arrived[0] < size && System.nanoTime() < deadline) {
			Thread.sleep(50);
		}
	}

	private static long[] measureKubernetes(int size) throws InterruptedException {
		ExecutorService executor = Executors.newSingleThreadExecutor();
		DefaultDelayingQueue<Integer> queue = new DefaultDelayingQueue<>(executor);
		long start = System.nanoTime();
		long[] readyAt = readyTimes(size, start);
		long[] lateness = new long[size];
		int[] arrived = new int[1];
		Thread consumer = new Thread(() -> {
			try {
				Integer item;
				while ((item = queue.get()) != null) {
					lateness[arrived[0]++] = System.nanoTime() - readyAt[item];
					queue.done(item);
				}
			}
			catch (InterruptedException ex) {
				Thread.currentThread().interrupt();
			}
		});
		consumer.start();
		for (int i = 0; i < size; i++) {
			queue.addAfter(i, Duration.ofNanos(readyAt[i] - System.nanoTime()));
		}
		awaitArrivals(arrived, size, start);
		queue.shutDown();
		consumer.join(1000);
		consumer.interrupt();
		executor.shutdownNow();
		return Arrays.copyOf(lateness, arrived[0]);
	}

	private static long[] measureDelayQueue(int size) throws InterruptedException {
		DelayQueue<DelayedItem> queue = new DelayQueue<>();
		long start = System.nanoTime();
		long[] readyAt = readyTimes(size, start);
		long[] lateness = new long[size];
		int[] arrived = new int[1];
		Thread consumer = new Thread(() -> {
			try {
				while (arrived[0] < size) {
					DelayedItem next = queue.poll(100, TimeUnit.MILLISECONDS);
					if (next != null) {
						lateness[arrived[0]++] = System.nanoTime() - next.readyAt();
					}
					else if (System.nanoTime() > start + WINDOW_NANOS + GRACE_NANOS) {
						return;
					}
				}
			}
			catch (InterruptedException ex) {
				Thread.currentThread().interrupt();
			}
		});
		consumer.start();
		for (int i = 0; i < size; i++) {
			queue.put(new DelayedItem(i, readyAt[i]));
		}
		awaitArrivals(arrived, size, start);
		consumer.join(1000);
		return Arrays.copyOf(lateness, arrived[0]);
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

}
