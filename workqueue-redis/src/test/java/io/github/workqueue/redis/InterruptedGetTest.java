package io.github.workqueue.redis;

import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.locks.LockSupport;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A thread waiting in {@code get} is interrupted while an item it could be granted is
 * added, the two racing in either order, many times: the get either returns the item or
 * throws {@link InterruptedException} having taken nothing, and always the latter when
 * the interrupt came before the add (even if the thread had not woken when the grant
 * came); then the item is not lost (the next get has it) and not counted as a redelivery:
 * a grant that came as the interrupt did was handed back (what a worker container's pause
 * relies on: a paused worker starts no item).
 */
class InterruptedGetTest {

	private static final int ROUNDS = 200;

	private final RedisQueue<String> queue = RedisQueue
		.builder(RedisQueueConnection.of(TestRedis.client()), TestRedis.uniqueName("interrupted-get"))
		.build(ItemCodec.strings());

	@AfterEach
	void shutDown() {
		this.queue.shutDown();
	}

	@Test
	void anInterruptedGetShouldTakeNothingAndLoseNothing() throws Exception {
		int interruptedEmpty = 0;
		for (int round = 0; round < ROUNDS; round++) {
			String item = "item-" + round;
			AtomicReference<Object> outcome = new AtomicReference<>();
			Thread getter = new Thread(() -> {
				try {
					Optional<String> got = this.queue.get();
					outcome.set(got.orElse(null));
					got.ifPresent(this.queue::done);
				}
				catch (InterruptedException ex) {
					outcome.set(ex);
				}
			});
			getter.start();
			LockSupport.parkNanos(ThreadLocalRandom.current().nextLong(1_000_000, 3_000_000));
			boolean interruptFirst = ThreadLocalRandom.current().nextBoolean();
			if (interruptFirst) {
				getter.interrupt();
				this.queue.add(item);
			}
			else {
				this.queue.add(item);
				getter.interrupt();
			}
			getter.join(10_000);
			assertThat(getter.isAlive()).as("round %d: the getter ended", round).isFalse();
			Object result = outcome.get();
			if (interruptFirst) {
				assertThat(result).as("round %d: a get interrupted before the add takes nothing", round)
					.isInstanceOf(InterruptedException.class);
			}
			if (result instanceof InterruptedException) {
				assertThat(this.queue.lease(item)).as("round %d: an interrupted get holds nothing", round).isEmpty();
				assertThat(this.queue.get(Duration.ofSeconds(10))).as("round %d: the item was not lost", round)
					.contains(item);
				this.queue.done(item);
				interruptedEmpty++;
			}
			else {
				assertThat(result).as("round %d: the get returned the item", round).isEqualTo(item);
			}
		}
		assertThat(this.queue.len()).isZero();
		assertThat(this.queue.inFlight()).isEmpty();
		assertThat(this.queue.stats().redeliveries()).as("grants handed back are not redeliveries").isZero();
		System.out.println("Interrupted gets that took nothing: " + interruptedEmpty + " of " + ROUNDS);
	}

}
