package io.github.workqueue.benchmarks;

import java.lang.reflect.Field;
import java.time.Duration;
import java.util.concurrent.DelayQueue;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.LinkedBlockingQueue;

import io.kubernetes.client.extended.workqueue.DefaultDelayingQueue;
import io.kubernetes.client.extended.workqueue.DefaultWorkQueue;
import org.openjdk.jol.info.GraphLayout;

import io.github.workqueue.benchmarks.DelayedAddBenchmark.DelayedItem;
import io.github.workqueue.core.DelayingQueue;
import io.github.workqueue.core.FakeClock;
import io.github.workqueue.core.WorkQueue;

/**
 * Workload 7: retained bytes per queued item and per waiting item, measured with JOL as
 * the growth of the queue's object graph over an empty queue, less the items themselves.
 * Run with
 * {@code java -cp benchmarks.jar io.github.workqueue.benchmarks.MemoryMeasurement}.
 */
public final class MemoryMeasurement {

	private static final int QUEUED = 100_000;

	/**
	 * kubernetes-client/java keeps at most 1000 waiting items, so compare at that size.
	 */
	private static final int WAITING = 1_000;

	private MemoryMeasurement() {
	}

	public static void main(String[] args) throws Exception {
		Integer[] items = Keys.distinct(QUEUED);
		long itemBytes = GraphLayout.parseInstance((Object[]) items).totalSize()
				- GraphLayout.parseInstance((Object) new Integer[QUEUED]).totalSize();
		long perItem = itemBytes / QUEUED;
		System.out.printf("%-22s %-8s %8s %14s%n", "queue", "state", "items", "bytes/item");

		WorkQueue<Integer> ours = WorkQueue.builder().build();
		long empty = size(ours);
		for (Integer item : items) {
			ours.add(item);
		}
		print("workqueue", "queued", QUEUED, size(ours) - empty - itemBytes);

		DefaultWorkQueue<Integer> kubernetes = new DefaultWorkQueue<>();
		empty = size(kubernetes);
		for (Integer item : items) {
			kubernetes.add(item);
		}
		print("kubernetesClientJava", "queued", QUEUED, size(kubernetes) - empty - itemBytes);

		LinkedBlockingQueue<Integer> jdk = new LinkedBlockingQueue<>();
		empty = size(jdk);
		for (Integer item : items) {
			jdk.add(item);
		}
		print("LinkedBlockingQueue", "queued", QUEUED, size(jdk) - empty - itemBytes);

		long waitingItemBytes = perItem * WAITING;
		// A fake clock keeps the shared timer thread (and its lambdas) out of the walked
		// graph.
		DelayingQueue<Integer> oursDelaying = WorkQueue.builder().clock(new FakeClock()).buildDelaying();
		empty = size(oursDelaying);
		for (int i = 0; i < WAITING; i++) {
			oursDelaying.addAfter(items[i], Duration.ofHours(1));
		}
		print("workqueue", "waiting", WAITING, size(oursDelaying) - empty - waitingItemBytes);
		oursDelaying.shutDown();

		ExecutorService executor = Executors.newSingleThreadExecutor();
		DefaultDelayingQueue<Integer> kubernetesDelaying = new DefaultDelayingQueue<>(executor);
		// Its executor's thread is reachable from the queue and drags in most of the
		// heap,
		// so walk only the three fields that hold waiting items.
		empty = waitingFieldsSize(kubernetesDelaying);
		for (int i = 0; i < WAITING; i++) {
			kubernetesDelaying.addAfter(items[i], Duration.ofHours(1));
		}
		Thread.sleep(500);
		print("kubernetesClientJava", "waiting", WAITING,
				waitingFieldsSize(kubernetesDelaying) - empty - waitingItemBytes);
		kubernetesDelaying.shutDown();
		executor.shutdownNow();

		DelayQueue<DelayedItem> delayQueue = new DelayQueue<>();
		empty = size(delayQueue);
		long now = System.nanoTime();
		for (int i = 0; i < WAITING; i++) {
			delayQueue.put(new DelayedItem(items[i], now + Duration.ofHours(1).toNanos()));
		}
		print("DelayQueue", "waiting", WAITING, size(delayQueue) - empty - waitingItemBytes);
		System.exit(0);
	}

	private static long waitingFieldsSize(DefaultDelayingQueue<?> queue) throws ReflectiveOperationException {
		long total = 0;
		Field field = DefaultDelayingQueue.class.getDeclaredField("waitingEntryByData");
		field.setAccessible(true);
		total += size(field.get(queue));
		return total;
	}

	private static long size(Object queue) {
		return GraphLayout.parseInstance(queue).totalSize();
	}

	private static void print(String name, String state, int count, long bytes) {
		System.out.printf("%-22s %-8s %8d %14.1f%n", name, state, count, (double) bytes / count);
	}

}
