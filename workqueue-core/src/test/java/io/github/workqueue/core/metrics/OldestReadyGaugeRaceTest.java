package io.github.workqueue.core.metrics;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.atomic.AtomicBoolean;

import org.junit.jupiter.api.Test;

import io.github.workqueue.core.FakeClock;
import io.github.workqueue.core.RateLimitingQueue;
import io.github.workqueue.core.WorkQueue;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The oldest-ready gauge is computed by a scan of the queue's entries without its lock,
 * while producers and consumers change them: every value it reports must still be one
 * that some moment of the run could have had (never negative, never older than the time
 * since the first add), and once the queue is empty it reports 0.
 */
class OldestReadyGaugeRaceTest {

	private static Thread start(Runnable body) {
		Thread thread = new Thread(body);
		thread.start();
		return thread;
	}

	@Test
	void theLockFreeScanShouldOnlyReportPossibleAges() throws InterruptedException {
		FakeClock clock = new FakeClock();
		RecordingMetricsProvider metrics = new RecordingMetricsProvider();
		RateLimitingQueue<String> queue = WorkQueue.builder()
			.name("race")
			.clock(clock)
			.metricsProvider(metrics)
			.unfinishedWorkUpdatePeriod(Duration.ofMillis(1))
			.buildRateLimiting();
		AtomicBoolean producing = new AtomicBoolean(true);
		List<Thread> threads = new ArrayList<>();
		for (int i = 0; i < 2; i++) {
			threads.add(start(() -> {
				// New keys most of the time (an entry made is the moment the scan races),
				// at most a few hundred queued.
				while (producing.get()) {
					if (queue.len() < 256) {
						queue.add("key-" + ThreadLocalRandom.current().nextInt(1_000_000));
					}
				}
			}));
			threads.add(start(() -> {
				try {
					for (String item; (item = queue.get().orElse(null)) != null;) {
						queue.done(item);
					}
				}
				catch (InterruptedException ex) {
					Thread.currentThread().interrupt();
				}
			}));
		}
		long start = clock.nanoTime();
		for (int step = 0; step < 10_000; step++) {
			clock.step(Duration.ofMillis(1));
			double seconds = metrics.oldestReadyItemSeconds("race");
			assertThat(seconds).as("step %d", step).isBetween(0.0, (clock.nanoTime() - start) / 1e9);
		}
		producing.set(false);
		for (int i = 0; i < threads.size(); i += 2) {
			threads.get(i).join();
		}
		// The consumers drain what is left; then nothing is ready and the gauge says 0.
		boolean zero = false;
		for (int step = 0; step < 10_000 && !zero; step++) {
			Thread.sleep(1);
			clock.step(Duration.ofMillis(1));
			zero = queue.len() == 0 && metrics.oldestReadyItemSeconds("race") == 0;
		}
		assertThat(zero).as("0 once nothing is ready").isTrue();
		queue.shutDown();
		for (Thread thread : threads) {
			thread.join();
		}
	}

}
