package io.github.workqueue.autoconfigure.internal;

import java.time.Duration;
import java.util.List;

import org.jspecify.annotations.Nullable;

import io.github.workqueue.autoconfigure.WorkQueueProperties.Backend;

/**
 * The settings of one queue after inheritance from the defaults and validation.
 *
 * @param name the queue name
 * @param workers the number of worker threads
 * @param maxRetries the retries before an item is given up, or null to retry forever
 * @param notRetryable the exception types that are never retried
 * @param rateLimiter the limiter, validated but not yet built
 * @param backend where the queue lives
 * @param backendPath the property that chose the backend, for messages
 * @param redis the settings of a Redis queue (resolved for every queue, used by Redis
 * ones)
 * @param defaultPriority the priority of adds that name none
 * @param fairness the name of the fairness key extractor bean, or null for none
 * @param fairnessPath the property that named it, for messages
 */
public record QueueSettings(String name, int workers, @Nullable Integer maxRetries,
		List<Class<? extends Throwable>> notRetryable, RateLimiterSpec rateLimiter, Backend backend, String backendPath,
		RedisSettings redis, int defaultPriority, @Nullable String fairness, String fairnessPath) {

	/**
	 * What a Redis queue adds.
	 *
	 * @param leaseDuration how long a lease lasts without renewal
	 * @param maxRedeliveries redeliveries in a row before an item is parked
	 * @param keyPrefix the first part of the keys' hash tag
	 * @param shards how many shards the queue is spread over
	 * @param prefetch the most items an instance leases ahead of its waiting workers
	 * @param adaptivePrefetch whether as many are leased ahead as the workers use, up to
	 * prefetch, or always prefetch
	 * @param maxAsyncAdds the most asynchronous adds unanswered per shard
	 * @param replicasAck how many replicas confirm each add and done
	 * @param replicasAckTimeout how long an add or done waits for them
	 */
	public record RedisSettings(Duration leaseDuration, int maxRedeliveries, String keyPrefix, int shards, int prefetch,
			boolean adaptivePrefetch, int maxAsyncAdds, int replicasAck, Duration replicasAckTimeout) {

	}

}
