package io.github.workqueue.redis.internal.batch;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@link InOrderExecutor} on a pool of several threads: the tasks run in the order given
 * and never two at once, and a task that throws does not stop the ones after it.
 */
class InOrderExecutorTest {

	private final ExecutorService pool = Executors.newFixedThreadPool(4);

	@AfterEach
	void shutDown() {
		this.pool.shutdownNow();
	}

	@Test
	void tasksShouldRunOneAtATimeInTheOrderGiven() throws InterruptedException {
		InOrderExecutor executor = new InOrderExecutor(this.pool);
		int count = 5_000;
		List<Integer> ran = Collections.synchronizedList(new ArrayList<>());
		AtomicInteger running = new AtomicInteger();
		AtomicInteger overlaps = new AtomicInteger();
		CountDownLatch done = new CountDownLatch(count);
		for (int i = 0; i < count; i++) {
			int task = i;
			executor.execute(() -> {
				if (running.incrementAndGet() > 1) {
					overlaps.incrementAndGet();
				}
				ran.add(task);
				Thread.yield();
				running.decrementAndGet();
				done.countDown();
			});
		}
		assertThat(done.await(30, TimeUnit.SECONDS)).isTrue();
		assertThat(overlaps).as("tasks that ran beside another").hasValue(0);
		assertThat(ran).as("in the order given").isSorted().hasSize(count);
	}

	@Test
	void aTaskThatThrowsShouldNotStopTheOnesAfterIt() throws InterruptedException {
		InOrderExecutor executor = new InOrderExecutor(this.pool);
		CountDownLatch after = new CountDownLatch(1);
		executor.execute(() -> {
			throw new IllegalStateException("a task's own failure");
		});
		executor.execute(after::countDown);
		assertThat(after.await(30, TimeUnit.SECONDS)).as("the task after it ran").isTrue();
	}

}
