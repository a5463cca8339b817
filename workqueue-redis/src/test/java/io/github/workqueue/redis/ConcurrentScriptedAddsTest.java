package io.github.workqueue.redis;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Adds that run a script of their own (delayed and rate-limited) from many threads of one
 * instance at once: each takes its number as it leaves on the connection, in that order,
 * so that Redis refuses none as a repeat of another ({@code includes/once.lua}; a call
 * numbered out of order would throw {@link UnconfirmedAddException}), and each is
 * applied.
 */
class ConcurrentScriptedAddsTest {

	private static final int THREADS = 8;

	private static final int ADDS_PER_THREAD = 250;

	private final RedisQueueConnection connection = RedisQueueConnection.of(TestRedis.client());

	private final RedisQueue<String> queue = RedisQueue
		.builder(this.connection, TestRedis.uniqueName("concurrent-scripted-adds"))
		.build(ItemCodec.strings());

	@AfterEach
	void shutDown() {
		this.queue.shutDown();
		this.connection.close();
	}

	@Test
	void scriptedAddsFromManyThreadsShouldEachBeAppliedAndNoneRefusedAsARepeat() throws Exception {
		ExecutorService threads = Executors.newFixedThreadPool(THREADS);
		CountDownLatch start = new CountDownLatch(1);
		List<Future<?>> done = new ArrayList<>();
		for (int t = 0; t < THREADS; t++) {
			int thread = t;
			done.add(threads.submit(() -> {
				start.await();
				for (int i = 0; i < ADDS_PER_THREAD; i++) {
					String item = "t" + thread + "-" + i;
					if (i % 2 == 0) {
						this.queue.addAfter(item, Duration.ofHours(1));
					}
					else {
						this.queue.addRateLimited(item);
					}
				}
				return null;
			}));
		}
		start.countDown();
		for (Future<?> thread : done) {
			thread.get(60, TimeUnit.SECONDS);
		}
		threads.shutdown();

		assertThat(this.queue.len() + this.queue.waitingLen()).isEqualTo(THREADS * ADDS_PER_THREAD);
	}

}
