package io.github.workqueue.redis;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

/**
 * A queue-wide pause set by one instance is obeyed by every other: while it lasts no
 * instance is granted an item, though adds go on and keep their order; it says who set it
 * and since when; resuming lets the items flow again, and an instance built while the
 * queue is paused obeys it too.
 */
class QueueWidePauseTest {

	private final String name = TestRedis.uniqueName("queue-wide-pause");

	private final List<RedisQueue<String>> queues = new ArrayList<>();

	@AfterEach
	void shutDown() {
		this.queues.forEach(RedisQueue::shutDown);
	}

	private RedisQueue<String> instance(String holder, int shards) {
		RedisQueue<String> queue = RedisQueue.builder(RedisQueueConnection.of(TestRedis.client()), this.name)
			.holder(holder)
			.shards(shards)
			.build(ItemCodec.strings());
		this.queues.add(queue);
		return queue;
	}

	@ParameterizedTest(name = "{0} shard(s)")
	@ValueSource(ints = { 1, 3 })
	void aPauseByOneInstanceShouldHoldEveryInstanceUntilResumed(int shards) throws Exception {
		RedisQueue<String> one = instance("one", shards);
		RedisQueue<String> two = instance("two", shards);
		one.add("a");
		Instant before = Instant.now();

		assertThat(one.pauseEverywhere("on-call: bad deploy")).isTrue();
		assertThat(two.pauseEverywhere("someone else")).as("already paused").isFalse();
		two.add("b");
		assertThat(two.get(Duration.ofMillis(300))).as("nothing granted while paused").isEmpty();
		assertThat(one.get(Duration.ofMillis(300))).isEmpty();
		RedisQueue<String> later = instance("later", shards);
		assertThat(later.get(Duration.ofMillis(300))).as("an instance built while paused").isEmpty();
		assertThat(two.len()).as("adds go on").isEqualTo(2);
		assertThat(two.pausedEverywhere()).hasValueSatisfying((pause) -> {
			assertThat(pause.by()).isEqualTo("on-call: bad deploy");
			assertThat(pause.since()).isBetween(before.minusMillis(1), Instant.now());
		});

		assertThat(two.resumeEverywhere()).isTrue();
		assertThat(one.resumeEverywhere()).isFalse();
		assertThat(two.pausedEverywhere()).isEmpty();
		List<String> taken = new ArrayList<>();
		for (int i = 0; i < 2; i++) {
			String item = two.get(Duration.ofSeconds(5)).orElseThrow();
			taken.add(item);
			two.done(item);
		}
		if (shards == 1) {
			assertThat(taken).as("the order kept").containsExactly("a", "b");
		}
		else {
			assertThat(taken).containsExactlyInAnyOrder("a", "b");
		}
		assertThat(two.stats().redeliveries()).isZero();
	}

	@Test
	void aPauseShouldSayWhoPausesIt() {
		RedisQueue<String> queue = instance("one", 1);
		assertThatIllegalArgumentException().isThrownBy(() -> queue.pauseEverywhere(" "))
			.withMessageContaining("who pauses");
		assertThat(queue.pausedEverywhere()).isEmpty();
	}

}
