package io.github.workqueue.redis;

import java.time.Instant;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import io.github.workqueue.core.DeadLetter;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A Redis queue's dead letters, queue-wide: the items given up (with reason, attempts,
 * last error and time, newest first) and the parked ones, one list seen alike by every
 * instance; requeued, an item is queued again; dropped, it is gone.
 */
class DeadLettersTest {

	private final String name = TestRedis.uniqueName("dead-letters");

	private final RedisQueue<String> one = RedisQueue.builder(RedisQueueConnection.of(TestRedis.client()), this.name)
		.build(ItemCodec.strings());

	private final RedisQueue<String> two = RedisQueue.builder(RedisQueueConnection.of(TestRedis.client()), this.name)
		.build(ItemCodec.strings());

	@AfterEach
	void shutDown() {
		this.one.shutDown();
		this.two.shutDown();
	}

	@Test
	void givenUpAndParkedItemsShouldBeOneQueueWideListToRequeueOrDrop() throws Exception {
		Instant before = Instant.now();
		this.one.deadLetter("a", "gave up after max-retries", 4, new IllegalStateException("boom"));
		this.one.deadLetter("b", "gave up: not retryable", 1, null);
		ParkedItems.park(RedisQueue.builder(RedisQueueConnection.of(TestRedis.client()), this.name), "p");

		assertThat(this.two.deadLetters()).hasSize(3).satisfiesExactly((b) -> {
			assertThat(b.item()).isEqualTo("b");
			assertThat(b.lastError()).isNull();
		}, (a) -> {
			assertThat(a).usingRecursiveComparison()
				.ignoringFields("at")
				.isEqualTo(new DeadLetter("a", "gave up after max-retries", 4, "java.lang.IllegalStateException: boom",
						null));
			assertThat(a.at()).isBetween(before.minusMillis(1), Instant.now());
		}, (p) -> {
			assertThat(p.item()).isEqualTo("p");
			assertThat(p.reason()).startsWith("parked: lease expired");
		});

		assertThat(this.two.deadLetterCount()).isEqualTo(3);
		assertThat(this.one.stats().givenUp()).isEqualTo(2);
		assertThat(this.one.stats().deadLetters()).as("given up and parked").isEqualTo(3);

		assertThat(this.two.requeueDeadLetter("a")).isTrue();
		assertThat(this.two.requeueDeadLetter("p")).isTrue();
		assertThat(this.two.dropDeadLetter("b")).isTrue();
		assertThat(this.two.dropDeadLetter("b")).isFalse();
		assertThat(this.two.requeueDeadLetter("nothing")).isFalse();
		assertThat(this.one.deadLetters()).isEmpty();
		assertThat(this.one.deadLetterCount()).isZero();
		assertThat(this.one.len()).as("a and p queued again").isEqualTo(2);
	}

}
