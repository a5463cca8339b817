package io.github.workqueue.redis;

import io.github.workqueue.core.FairnessKeyExtractor;
import io.github.workqueue.core.FakeClock;
import io.github.workqueue.core.RateLimitingQueue;
import io.github.workqueue.core.WorkQueue;
import io.github.workqueue.core.WorkQueueBuilder;
import io.github.workqueue.core.ratelimit.RateLimiter;
import org.jspecify.annotations.Nullable;

/**
 * The queues the contract tests run on, by backend: {@code memory}, {@code redis},
 * {@code redis-cluster}, and both Redis ones with {@code -sharded} (three shards), their
 * time driven by one {@link FakeClock}.
 */
final class ContractQueues {

	private ContractQueues() {
	}

	static RateLimitingQueue<String> create(String backend, FakeClock clock, RateLimiter<?> limiter,
			@Nullable FairnessKeyExtractor<String> fairness, String hint) {
		return create(backend, clock, limiter, fairness, 0, hint);
	}

	static RateLimitingQueue<String> create(String backend, FakeClock clock, RateLimiter<?> limiter,
			@Nullable FairnessKeyExtractor<String> fairness, int defaultPriority, String hint) {
		if (backend.equals("memory")) {
			WorkQueueBuilder builder = WorkQueue.builder()
				.clock(clock)
				.rateLimiter(limiter)
				.defaultPriority(defaultPriority);
			return ((fairness != null) ? builder.fairness(fairness) : builder).buildRateLimiting();
		}
		RedisQueueConnection connection = backend.startsWith("redis-cluster")
				? RedisQueueConnection.of(TestRedisCluster.client()) : RedisQueueConnection.of(TestRedis.client());
		RedisQueueBuilder builder = RedisQueue.builder(connection, TestRedis.uniqueName(hint))
			.shards(isSharded(backend) ? 3 : 1)
			.timeForTests(clock)
			.rateLimiter(limiter)
			.defaultPriority(defaultPriority);
		return ((fairness != null) ? builder.fairness(fairness) : builder).build(ItemCodec.strings());
	}

	/** Whether items come out in order only within a shard. */
	static boolean isSharded(String backend) {
		return backend.endsWith("-sharded");
	}

}
