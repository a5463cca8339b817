package io.github.workqueue.redis;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

import io.github.workqueue.core.AddOptions;
import io.github.workqueue.core.FairnessKeyExtractor;
import io.github.workqueue.core.RateLimitingQueue;
import io.github.workqueue.core.WorkQueue;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A call that takes many items at once from a queue with fairness (an instance leasing
 * ahead asks for its buffer's worth) serves the tenants in the order one take after
 * another does, as the memory queue does: round-robin, a tenant leaving the turns when it
 * has no item left, whether the call reads the whole turns or only their head.
 */
class FairTakesTest {

	private static final FairnessKeyExtractor<String> TENANT = (item) -> List.of(item.substring(0, item.indexOf('/')));

	@ParameterizedTest(name = "{0} tenants, prefetch {1}")
	@CsvSource({ "4, 32", "40, 8", "3, 2" })
	void aBatchOfTakesShouldServeTheTenantsInTheMemoryQueuesOrder(int tenants, int prefetch)
			throws InterruptedException {
		RedisQueue<String> redis = RedisQueue
			.builder(RedisQueueConnection.of(TestRedis.client()), TestRedis.uniqueName("fair-takes"))
			.fairness(TENANT)
			.prefetch(prefetch)
			.build(ItemCodec.strings());
		RateLimitingQueue<String> memory = WorkQueue.builder().fairness(TENANT).buildRateLimiting();
		try {
			for (RateLimitingQueue<String> queue : List.of(memory, redis)) {
				for (int round = 0; round < 9; round++) {
					for (int tenant = 0; tenant < tenants; tenant++) {
						// Uneven: tenant t has (t % 4) * 2 + 1 items, so tenants run out
						// in turn.
						if (round < (tenant % 4) * 2 + 1) {
							queue.add("t" + tenant + "/" + round);
						}
					}
					if (round == 4) {
						queue.add("t0/late", AddOptions.priority(1));
					}
				}
			}
			assertThat(takeAll(redis)).isEqualTo(takeAll(memory));
		}
		finally {
			redis.shutDown();
			memory.shutDown();
		}
	}

	private static List<String> takeAll(RateLimitingQueue<String> queue) throws InterruptedException {
		List<String> taken = new ArrayList<>();
		Optional<String> item;
		while ((item = queue.get(Duration.ofMillis(300))).isPresent()) {
			taken.add(item.get());
			queue.done(item.get());
		}
		return taken;
	}

}
