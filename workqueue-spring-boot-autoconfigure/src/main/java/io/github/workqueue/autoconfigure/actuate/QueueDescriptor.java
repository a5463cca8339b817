package io.github.workqueue.autoconfigure.actuate;

import java.util.List;
import java.util.Map;

import org.jspecify.annotations.Nullable;

import org.springframework.boot.actuate.endpoint.OperationResponseBody;

/**
 * One queue.
 *
 * @param backend {@code "memory"} or {@code "redis"}
 * @param depth items queued; {@code null} for a Redis queue never read yet while Redis
 * cannot be reached
 * @param depthByPriority items queued per priority, highest first
 * @param depthByFairnessKey items queued per first fairness key, empty without fairness
 * @param waiting items waiting for a delay; {@code null} as {@code depth}
 * @param shuttingDown whether the queue is shutting down
 * @param adds adds since start, when metrics are on
 * @param completions items this instance has finished ({@code done}) since start, when
 * metrics are on
 * @param retries delayed and rate-limited adds since start, when metrics are on
 * @param rateLimiter the rate limiter
 * @param workers the workers, if the queue has a {@code @QueueWorker}
 * @param shared what Redis holds, if the queue is shared on Redis
 * @param recent this instance's recent rates and latencies, oldest first, when asked for
 * and sampled
 * @param deadLetterCount the items kept as dead letters (given up by the workers, and on
 * Redis parked), or those that match the search
 * @param deadLettersOffset how many of them, newest first, come before the first listed
 * @param deadLetters the listed ones, at most 100 from the offset, newest first
 * @param details sections that other modules add for the queue
 * ({@link QueueDetailsContributor}), such as {@code informer}; empty when none
 */
public record QueueDescriptor(String backend, @Nullable Integer depth, Map<Integer, Integer> depthByPriority,
		Map<String, Integer> depthByFairnessKey, @Nullable Integer waiting, boolean shuttingDown, @Nullable Long adds,
		@Nullable Long completions, @Nullable Long retries, String rateLimiter, @Nullable WorkersDescriptor workers,
		@Nullable SharedDescriptor shared, @Nullable List<RateSample> recent, long deadLetterCount,
		int deadLettersOffset, List<DeadLetterDescriptor> deadLetters,
		Map<String, Object> details) implements OperationResponseBody {

}
