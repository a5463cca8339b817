package io.github.workqueue.core.internal;

import java.lang.ref.WeakReference;
import java.time.Duration;

import org.junit.jupiter.api.Test;

import io.github.workqueue.core.FakeClock;
import io.github.workqueue.core.RateLimitingQueue;
import io.github.workqueue.core.WorkQueue;
import io.github.workqueue.core.metrics.RecordingMetricsProvider;

import static org.assertj.core.api.Assertions.assertThat;

class QueueRetentionTest {

	@Test
	void processedItemShouldNotBeRetained() throws InterruptedException {
		FakeClock clock = new FakeClock();
		RateLimitingQueue<Key> queue = WorkQueue.builder()
			.name("retention")
			.clock(clock)
			.metricsProvider(new RecordingMetricsProvider())
			.buildRateLimiting();
		WeakReference<Key> added = processOnce(queue, clock, new Key("added"), false);
		WeakReference<Key> delayed = processOnce(queue, clock, new Key("delayed"), true);
		for (int i = 0; i < 50 && (added.get() != null || delayed.get() != null); i++) {
			System.gc();
			Thread.sleep(10);
		}
		assertThat(added.get()).as("added, processed and forgotten").isNull();
		assertThat(delayed.get()).as("delayed, processed and forgotten").isNull();
	}

	@Test
	void anItemWhoseDelayedAddWasSupersededShouldNotBeRetained() throws InterruptedException {
		FakeClock clock = new FakeClock();
		RateLimitingQueue<Key> queue = WorkQueue.builder().clock(clock).buildRateLimiting();
		Key key = new Key("superseded");
		queue.addAfter(key, Duration.ofHours(1));
		queue.addAfter(key, Duration.ofMinutes(1));
		queue.add(key);
		Key taken = queue.get().orElseThrow();
		queue.done(taken);
		WeakReference<Key> reference = new WeakReference<>(key);
		key = null;
		taken = null;
		for (int i = 0; i < 50 && reference.get() != null; i++) {
			System.gc();
			Thread.sleep(10);
		}
		assertThat(reference.get()).as("its two stale waiting entries are still in the heap").isNull();
		assertThat(queue.len()).isZero();
		assertThat(queue.waitingLen()).isZero();
	}

	private static WeakReference<Key> processOnce(RateLimitingQueue<Key> queue, FakeClock clock, Key key,
			boolean delayed) throws InterruptedException {
		if (delayed) {
			queue.addRateLimited(key);
			clock.step(Duration.ofSeconds(1));
		}
		else {
			queue.add(key);
		}
		Key taken = queue.get().orElseThrow();
		queue.forget(taken);
		queue.done(taken);
		return new WeakReference<>(key);
	}

	private record Key(String name) {
	}

}
