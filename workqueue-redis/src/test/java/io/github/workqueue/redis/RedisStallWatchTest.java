package io.github.workqueue.redis;

import java.lang.reflect.Proxy;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.logging.Level;
import java.util.logging.LogRecord;

import io.github.workqueue.core.Clock;
import io.github.workqueue.core.metrics.CounterMetric;
import io.github.workqueue.core.metrics.MetricsProvider;
import io.lettuce.core.RedisClient;
import io.lettuce.core.RedisURI;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * The watchdog of the thread that sends an instance's requests to Redis: a sender held up
 * (here inside the test's clock, which it reads for every batch) for longer than its
 * bound is reported once at ERROR with its stack, counted, and shown by
 * {@link RedisQueue#stalledFor()} until it moves again.
 */
class RedisStallWatchTest {

	@RegisterExtension
	final QueueLogRecords logs = new QueueLogRecords();

	/** A command timeout of one second: the shortest stall bound, 5 s, applies. */
	private final RedisClient client = RedisClient
		.create(RedisURI.builder(RedisURI.create(TestRedis.uri())).withTimeout(Duration.ofSeconds(1)).build());

	@AfterEach
	void stop() {
		this.client.shutdown();
	}

	@Test
	void aSenderHeldUpBeyondItsBoundShouldBeReportedOnceUntilItMovesAgain() throws Exception {
		AtomicBoolean holdUp = new AtomicBoolean();
		CountDownLatch release = new CountDownLatch(1);
		AtomicLong stalls = new AtomicLong();
		CounterMetric stallCounter = stalls::addAndGet;
		// Every metric is the no-op provider's but the stalls.
		MetricsProvider metrics = (MetricsProvider) Proxy.newProxyInstance(getClass().getClassLoader(),
				new Class<?>[] { MetricsProvider.class },
				(proxy, method, args) -> method.getName().equals("newStallsMetric") ? stallCounter
						: method.invoke(MetricsProvider.noop(), args));
		RedisQueue<String> queue = RedisQueue
			.builder(RedisQueueConnection.of(this.client), TestRedis.uniqueName("stall"))
			.timeForTests(new SenderHeldUpClock(holdUp, release))
			.metricsProvider(metrics)
			.build(ItemCodec.strings());
		queue.add("before");
		assertThat(queue.stalledFor()).isEmpty();

		holdUp.set(true);
		CompletableFuture<Void> add = CompletableFuture.runAsync(() -> queue.add("during"));
		await().atMost(Duration.ofSeconds(20)).until(() -> queue.stalledFor().isPresent());
		await().atMost(Duration.ofSeconds(5)).until(() -> stalls.get() == 1);
		assertThat(queue.stalledFor().get()).isGreaterThan(Duration.ofSeconds(5));
		assertThat(add).isNotDone();
		LogRecord error = this.logs.all()
			.stream()
			.filter((record) -> record.getLevel() == Level.SEVERE)
			.findFirst()
			.orElseThrow();
		assertThat(error.getMessage()).contains("has made no progress");
		assertThat(error.getThrown().getStackTrace())
			.anySatisfy((frame) -> assertThat(frame.getClassName()).endsWith("BatchSender"));

		holdUp.set(false);
		release.countDown();
		assertThat(add).succeedsWithin(Duration.ofSeconds(10));
		await().atMost(Duration.ofSeconds(5))
			.until(() -> this.logs.all().stream().anyMatch((record) -> record.getMessage().contains("moves again")));
		assertThat(queue.stalledFor()).isEmpty();
		assertThat(stalls).hasValue(1);
		assertThat(this.logs.all().stream().filter((record) -> record.getLevel() == Level.SEVERE)).hasSize(1);
		queue.shutDown();
	}

	/**
	 * Redis's time for the scripts, which holds up the thread that sends batches while
	 * {@code holdUp} is set, until released.
	 */
	private record SenderHeldUpClock(AtomicBoolean holdUp, CountDownLatch release) implements Clock {

		@Override
		public long nanoTime() {
			if (this.holdUp.get() && Thread.currentThread().getName().endsWith("-batches")) {
				try {
					this.release.await();
				}
				catch (InterruptedException ex) {
					Thread.currentThread().interrupt();
				}
			}
			return System.nanoTime();
		}

		@Override
		public Timer schedule(long deadlineNanos, Runnable task) {
			throw new UnsupportedOperationException();
		}

	}

}
