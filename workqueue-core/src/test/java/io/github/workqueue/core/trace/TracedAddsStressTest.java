package io.github.workqueue.core.trace;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.atomic.AtomicLong;

import org.junit.jupiter.api.Test;

import io.github.workqueue.core.WorkQueue;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Producers add a few hot keys, each add with a context of its own, while consumers take
 * and finish them (re-adds while processing, deduplicated adds): every add's context is
 * counted by exactly one processing, and no kept context reaches two processings. It
 * fails if a take could hand over a context added after it, or lose one added before.
 */
class TracedAddsStressTest {

	private static final int PRODUCERS = 3;

	private static final int ADDS = 20_000;

	private static final ThreadLocal<String> CURRENT = new ThreadLocal<>();

	private static Thread started(Runnable task) {
		Thread thread = new Thread(task);
		thread.start();
		return thread;
	}

	@Test
	void everyAddsContextShouldReachExactlyOneProcessing() throws Exception {
		WorkQueue<Integer> queue = WorkQueue.builder().traceCapture(CURRENT::get).build();
		AtomicLong counted = new AtomicLong();
		Set<String> kept = ConcurrentHashMap.newKeySet();
		AtomicLong keptTwice = new AtomicLong();
		List<Thread> consumers = new ArrayList<>();
		for (int c = 0; c < 2; c++) {
			consumers.add(started(() -> {
				try {
					for (;;) {
						Optional<Integer> item = queue.get();
						if (item.isEmpty()) {
							return;
						}
						AddTraces traces = TracedAddsTest.tracesOf(queue, item.get()).orElseThrow();
						counted.addAndGet(1 + traces.links().size() + traces.droppedLinks());
						if (!kept.add(traces.parent())) {
							keptTwice.incrementAndGet();
						}
						for (String link : traces.links()) {
							if (!kept.add(link)) {
								keptTwice.incrementAndGet();
							}
						}
						queue.done(item.get());
					}
				}
				catch (InterruptedException ex) {
					Thread.currentThread().interrupt();
				}
			}));
		}
		List<Thread> producers = new ArrayList<>();
		for (int p = 0; p < PRODUCERS; p++) {
			int producer = p;
			producers.add(started(() -> {
				for (int i = 0; i < ADDS; i++) {
					CURRENT.set(producer + "-" + i);
					queue.add(ThreadLocalRandom.current().nextInt(8));
				}
			}));
		}
		for (Thread producer : producers) {
			producer.join();
		}
		queue.shutDown();
		for (Thread consumer : consumers) {
			consumer.join();
		}
		assertThat(keptTwice.get()).isZero();
		assertThat(counted.get()).isEqualTo((long) PRODUCERS * ADDS);
	}

}
