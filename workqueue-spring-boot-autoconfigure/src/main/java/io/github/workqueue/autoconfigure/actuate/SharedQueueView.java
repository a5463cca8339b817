package io.github.workqueue.autoconfigure.actuate;

import java.time.Duration;
import java.util.List;

import org.jspecify.annotations.Nullable;

import org.springframework.util.ClassUtils;

import io.github.workqueue.autoconfigure.actuate.WorkQueuesEndpoint.LeaseDescriptor;
import io.github.workqueue.autoconfigure.actuate.WorkQueuesEndpoint.SharedDescriptor;
import io.github.workqueue.core.RateLimitingQueue;
import io.github.workqueue.redis.InFlightItem;
import io.github.workqueue.redis.RedisQueue;
import io.github.workqueue.redis.RedisQueueStats;

/**
 * What the endpoint and health show of a queue shared on Redis. The Redis classes are
 * optional: they are only touched (in {@link Redis}) once {@link #AVAILABLE} says they
 * are there, so an application without them never loads them.
 */
final class SharedQueueView {

	private static final boolean AVAILABLE = ClassUtils.isPresent("io.github.workqueue.redis.RedisQueue",
			SharedQueueView.class.getClassLoader());

	private SharedQueueView() {
	}

	/**
	 * Describes a Redis queue from Redis, or returns {@code null} for an in-memory one.
	 * @throws RuntimeException when Redis cannot be reached
	 */
	static @Nullable SharedDescriptor describe(RateLimitingQueue<?> queue) {
		return (AVAILABLE && Redis.is(queue)) ? Redis.describe(queue) : null;
	}

	/**
	 * Returns why a Redis queue is unhealthy (Redis cannot be reached), or {@code null}.
	 */
	static @Nullable String problem(RateLimitingQueue<?> queue) {
		if (!AVAILABLE || !Redis.is(queue)) {
			return null;
		}
		String stalled = Redis.stall(queue);
		if (stalled != null) {
			return stalled;
		}
		try {
			Redis.stats(queue);
			return null;
		}
		catch (RuntimeException ex) {
			return "Redis cannot be reached: " + ex.getMessage();
		}
	}

	static boolean isShared(RateLimitingQueue<?> queue) {
		return AVAILABLE && Redis.is(queue);
	}

	/**
	 * Requeues or drops a parked item of a Redis queue.
	 * @return whether the item was parked
	 */
	static boolean changeParked(RateLimitingQueue<?> queue, boolean requeue, String item) {
		return Redis.changeParked(queue, requeue, item);
	}

	/** The only code that names Redis classes. */
	private static final class Redis {

		static boolean is(RateLimitingQueue<?> queue) {
			return queue instanceof RedisQueue<?>;
		}

		static @Nullable String stall(RateLimitingQueue<?> queue) {
			return ((RedisQueue<?>) queue).stalledFor()
				.map((stalled) -> "the thread that sends this instance's requests to Redis has made no progress for "
						+ stalled.toSeconds() + "s (its stack is in the ERROR log)")
				.orElse(null);
		}

		static RedisQueueStats stats(RateLimitingQueue<?> queue) {
			return ((RedisQueue<?>) queue).stats();
		}

		static SharedDescriptor describe(RateLimitingQueue<?> queue) {
			RedisQueue<?> redis = (RedisQueue<?>) queue;
			RedisQueueStats stats = redis.stats();
			List<LeaseDescriptor> leases = redis.inFlight().stream().map(Redis::lease).toList();
			return new SharedDescriptor(redis.holder(), redis.shards(), stats.queued(), stats.waiting(),
					stats.inFlight(), stats.redeliveries(), stats.rejectedDones(), leases, redis.parked());
		}

		private static LeaseDescriptor lease(InFlightItem item) {
			return new LeaseDescriptor(item.item(), item.holder(),
					seconds(Duration.between(item.grantedAt(), item.observedAt())),
					seconds(Duration.between(item.observedAt(), item.expiresAt())));
		}

		private static double seconds(Duration duration) {
			return duration.toMillis() / 1000.0;
		}

		static boolean changeParked(RateLimitingQueue<?> queue, boolean requeue, String item) {
			RedisQueue<?> redis = (RedisQueue<?>) queue;
			return requeue ? redis.requeueParked(item) : redis.dropParked(item);
		}

	}

}
