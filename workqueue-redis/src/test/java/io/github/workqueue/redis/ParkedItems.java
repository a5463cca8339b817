package io.github.workqueue.redis;

import java.time.Duration;

import io.github.workqueue.core.FakeClock;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Parks items as Redis does after a lease expired once too often: another instance, on a
 * clock of its own, takes the item and lets its lease run out.
 */
public final class ParkedItems {

	private ParkedItems() {
	}

	/**
	 * Parks an item.
	 * @param builder the queue as its other instances build it (name, prefix, fairness)
	 * @param item the item
	 */
	public static void park(RedisQueueBuilder builder, String item) throws InterruptedException {
		FakeClock clock = new FakeClock();
		RedisQueue<String> other = builder.leaseDuration(Duration.ofSeconds(1))
			.maxRedeliveries(0)
			.timeForTests(clock)
			.build(ItemCodec.strings());
		try {
			other.add(item);
			assertThat(other.get(Duration.ofSeconds(5))).contains(item);
			clock.step(Duration.ofSeconds(2));
			assertThat(other.get(Duration.ZERO)).isEmpty();
			assertThat(other.parked()).containsKey(item);
		}
		finally {
			other.shutDown();
		}
	}

}
