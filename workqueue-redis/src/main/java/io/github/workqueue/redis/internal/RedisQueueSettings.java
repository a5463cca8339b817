package io.github.workqueue.redis.internal;

import java.time.Duration;
import java.util.function.Consumer;
import java.util.function.LongSupplier;

import io.github.workqueue.core.FairnessKeyExtractor;
import io.github.workqueue.core.ratelimit.RateLimiter;
import io.github.workqueue.core.trace.TraceCapture;
import io.github.workqueue.redis.ItemCodec;
import io.github.workqueue.redis.LateDoneOutcome;
import org.jspecify.annotations.Nullable;

import io.github.workqueue.redis.internal.link.RedisLink;

/**
 * What a {@link DefaultRedisQueue} is made of, as its builder collected it.
 *
 * @param <T> the type of the items
 * @param name the queue's name
 * @param prefix the first part of its keys' hash tag
 * @param shards how many shards the queue is spread over
 * @param link the connection
 * @param codec the item codec
 * @param holder this instance's name in leases
 * @param leaseDuration how long a lease lasts without renewal
 * @param maxRedeliveries expiries in a row before an item is parked
 * @param rateLimiter the limiter, of the core's kinds
 * @param redisTimeMicros the time to use instead of Redis's, or {@code null}
 * @param longestBlock the longest single blocking wait
 * @param prefetch the most leases taken ahead of the threads that wait in get
 * @param adaptivePrefetch whether as many are taken ahead as the workers use, up to
 * {@code prefetch}, or always {@code prefetch}
 * @param asyncAdds the most adds per shard whose callers did not wait for the answer
 * @param metrics where metrics go, or {@code null} for none
 * @param defaultPriority the priority of adds that name none
 * @param fairness the fairness key extractor, or {@code null} for none
 * @param lateDoneListener told the final outcome of each done that got no answer in time
 * @param replicasAck how many replicas confirm each add and done before it returns
 * @param replicasAckTimeout how long an add or done waits for them
 */
public record RedisQueueSettings<T>(String name, String prefix, int shards, RedisLink link, ItemCodec<T> codec,
		String holder, Duration leaseDuration, int maxRedeliveries, RateLimiter<? super T> rateLimiter,
		@Nullable LongSupplier redisTimeMicros, Duration longestBlock, int prefetch, boolean adaptivePrefetch,
		int asyncAdds, @Nullable RedisQueueMetrics metrics, int defaultPriority,
		@Nullable FairnessKeyExtractor<? super T> fairness, Consumer<? super LateDoneOutcome> lateDoneListener,
		int replicasAck, Duration replicasAckTimeout, @Nullable TraceCapture traceCapture) {
}
