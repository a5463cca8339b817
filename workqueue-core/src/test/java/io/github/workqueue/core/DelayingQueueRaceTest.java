package io.github.workqueue.core;

import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The delaying layer's timer under races, on a fake clock: delayed adds, adds and steps
 * on a tiny key space from several threads.
 */
class DelayingQueueRaceTest {

	private final ExecutorService threads = Executors.newFixedThreadPool(4);

	@AfterEach
	void stopThreads() {
		this.threads.shutdownNow();
	}

	@Test
	void aQueueShouldNeverKeepMoreThanOnePendingTimer() throws Exception {
		for (int round = 0; round < 200; round++) {
			FakeClock clock = new FakeClock();
			DelayingQueue<Integer> queue = WorkQueue.builder().clock(clock).buildDelaying();
			CountDownLatch start = new CountDownLatch(1);
			Future<?> delayed = this.threads.submit(() -> {
				start.await();
				ThreadLocalRandom random = ThreadLocalRandom.current();
				for (int i = 0; i < 200; i++) {
					queue.addAfter(random.nextInt(3), Duration.ofNanos(1 + random.nextInt(5)));
				}
				return null;
			});
			Future<?> added = this.threads.submit(() -> {
				start.await();
				for (int i = 0; i < 200; i++) {
					queue.add(i % 3);
					queue.get(Duration.ZERO).ifPresent(queue::done);
				}
				return null;
			});
			Future<?> stepped = this.threads.submit(() -> {
				start.await();
				for (int i = 0; i < 200; i++) {
					clock.step(Duration.ofNanos(1));
				}
				return null;
			});
			start.countDown();
			delayed.get(30, TimeUnit.SECONDS);
			added.get(30, TimeUnit.SECONDS);
			stepped.get(30, TimeUnit.SECONDS);
			assertThat(clock.pendingTimers()).as("pending timers at quiescence").isLessThanOrEqualTo(1);
			clock.step(Duration.ofNanos(10));
			assertThat(queue.waitingLen()).isZero();
			assertThat(clock.pendingTimers()).as("no timer once nothing waits").isZero();
			queue.shutDown();
			assertThat(clock.pendingTimers()).isZero();
		}
	}

	@Test
	void aDelayedAddRacingAStepShouldWakeABlockedConsumerWithoutAnotherStep() throws Exception {
		for (int round = 0; round < 100; round++) {
			FakeClock clock = new FakeClock();
			DelayingQueue<String> queue = WorkQueue.builder().clock(clock).buildDelaying();
			Future<Optional<String>> consumer = this.threads.submit(() -> queue.get(Duration.ofSeconds(30)));
			CountDownLatch start = new CountDownLatch(1);
			Future<?> delayed = this.threads.submit(() -> {
				start.await();
				queue.addAfter("x", Duration.ofNanos(1));
				return null;
			});
			Future<?> stepped = this.threads.submit(() -> {
				start.await();
				clock.step(Duration.ofMillis(1));
				return null;
			});
			start.countDown();
			delayed.get(30, TimeUnit.SECONDS);
			stepped.get(30, TimeUnit.SECONDS);
			// No queue operation from here on: only the timer may wake the consumer.
			Optional<String> taken = takeWithin(consumer, 100);
			if (taken == null) {
				// Legitimate only if the add read the clock after the step, so that the
				// item is not due yet: then a step of zero must not deliver it either.
				clock.step(Duration.ZERO);
				assertThat(takeWithin(consumer, 50)).as("round %d: an item that was due stayed undelivered", round)
					.isNull();
				clock.step(Duration.ofNanos(1));
				taken = consumer.get(30, TimeUnit.SECONDS);
			}
			assertThat(taken).as("round %d", round).contains("x");
		}
	}

	private static <V> @Nullable V takeWithin(Future<V> future, long millis) throws Exception {
		try {
			return future.get(millis, TimeUnit.MILLISECONDS);
		}
		catch (TimeoutException notYet) {
			return null;
		}
	}

}
