package io.github.workqueue.autoconfigure.actuate;

import org.jspecify.annotations.Nullable;

/**
 * This instance's rates and latencies over one sample interval, from its meters.
 *
 * @param time when the interval ended, in milliseconds since the epoch
 * @param addsPerSecond adds per second
 * @param completionsPerSecond items finished ({@code done}) per second
 * @param retriesPerSecond delayed and rate-limited adds per second
 * @param queueLatencyP50 median seconds items waited before a {@code get}, with the
 * bucket it was estimated in, or {@code null} if none was taken
 * @param queueLatencyP99 99th percentile of the same
 * @param workDurationP50 median seconds from {@code get} to {@code done}, with its
 * bucket, or {@code null} if none finished
 * @param workDurationP99 99th percentile of the same
 * @param depth the queue's depth at the sample (queue-wide for a Redis queue, as last
 * read from Redis), or {@code null} if not known
 * @param oldestReadySeconds how long the oldest ready item had waited since its add
 * ({@code workqueue.oldest.ready.item}), or {@code null} if not known (Redis queues)
 */
public record RateSample(long time, double addsPerSecond, double completionsPerSecond, double retriesPerSecond,
		@Nullable Estimate queueLatencyP50, @Nullable Estimate queueLatencyP99, @Nullable Estimate workDurationP50,
		@Nullable Estimate workDurationP99, @Nullable Double depth, @Nullable Double oldestReadySeconds) {

}
