package io.github.workqueue.autoconfigure.actuate;

import java.util.List;

import org.jspecify.annotations.Nullable;

import io.github.workqueue.spring.QueueWorkerContainer;

/**
 * The workers of a queue.
 *
 * @param method the worker method
 * @param configured the number of worker threads
 * @param live worker threads alive
 * @param replaced worker threads that ended unexpectedly and were replaced
 * @param processing items being processed
 * @param paused whether the workers are paused
 * @param longestRunningSeconds age of the oldest item being processed
 * @param stuckAfterSeconds the processing time after which an item counts as stuck
 * ({@code workqueue.health.stuck-threshold}), or {@code null} if not set
 * @param outcomes what happened to the processed items
 * @param items the items being processed, the longest running first (at most 100)
 */
public record WorkersDescriptor(String method, int configured, int live, long replaced, int processing, boolean paused,
		double longestRunningSeconds, @Nullable Double stuckAfterSeconds, QueueWorkerContainer.Outcomes outcomes,
		List<ProcessingDescriptor> items) {

}
