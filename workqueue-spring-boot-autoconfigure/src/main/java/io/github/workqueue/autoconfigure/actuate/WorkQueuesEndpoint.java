package io.github.workqueue.autoconfigure.actuate;

import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import org.jspecify.annotations.Nullable;

import org.springframework.boot.actuate.endpoint.InvalidEndpointRequestException;
import org.springframework.boot.actuate.endpoint.annotation.Endpoint;
import org.springframework.boot.actuate.endpoint.annotation.ReadOperation;
import org.springframework.boot.actuate.endpoint.annotation.Selector;
import org.springframework.boot.actuate.endpoint.annotation.WriteOperation;

import io.github.workqueue.autoconfigure.WorkQueueRegistry;
import io.github.workqueue.spring.QueueWorkerContainer;
import io.github.workqueue.spring.QueueWorkerRegistry;
import io.github.workqueue.core.RateLimitingQueue;

/**
 * The {@code workqueues} endpoint: every queue at a glance, one queue in detail (404 for
 * an unknown name), and pausing or resuming a queue's workers ({@code POST {"action":
 * "pause"}} or {@code "resume"}).
 */
@Endpoint(id = "workqueues")
public class WorkQueuesEndpoint {

	private final WorkQueueRegistry queues;

	private final QueueWorkerRegistry workers;

	private final @Nullable MeterRegistry meterRegistry;

	public WorkQueuesEndpoint(WorkQueueRegistry queues, QueueWorkerRegistry workers,
			@Nullable MeterRegistry meterRegistry) {
		this.queues = queues;
		this.workers = workers;
		this.meterRegistry = meterRegistry;
	}

	@ReadOperation
	public QueuesDescriptor queues() {
		Map<String, QueueDescriptor> all = new TreeMap<>();
		this.queues.getQueues().forEach((name, queue) -> all.put(name, describe(name, queue)));
		return new QueuesDescriptor(all);
	}

	@ReadOperation
	public @Nullable QueueDescriptor queue(@Selector String name) {
		RateLimitingQueue<?> queue = this.queues.getQueue(name);
		return (queue != null) ? describe(name, queue) : null;
	}

	@WriteOperation
	public QueueDescriptor changeWorkers(@Selector String name, String action) {
		RateLimitingQueue<?> queue = this.queues.getQueue(name);
		if (queue == null) {
			throw new InvalidEndpointRequestException("No queue named '" + name + "'", "No such queue");
		}
		QueueWorkerContainer container = this.workers.getContainer(name);
		if (container == null) {
			throw new InvalidEndpointRequestException("Queue '" + name + "' has no @QueueWorker to pause or resume",
					"Queue has no workers");
		}
		switch (action.trim().toLowerCase(Locale.ROOT)) {
			case "pause" -> container.pause();
			case "resume" -> container.resume();
			default -> throw new InvalidEndpointRequestException(
					"Unknown action '" + action + "': use \"pause\" or \"resume\"", "Unknown action");
		}
		return describe(name, queue);
	}

	private QueueDescriptor describe(String name, RateLimitingQueue<?> queue) {
		QueueWorkerContainer container = this.workers.getContainer(name);
		WorkersDescriptor workers = (container != null) ? new WorkersDescriptor(container.method(), container.workers(),
				container.liveWorkers(), container.inFlight(), container.isPaused(),
				container.longestRunning().toMillis() / 1000.0, container.outcomes()) : null;
		return new QueueDescriptor(queue.len(), queue.waitingLen(), queue.isShuttingDown(),
				count("workqueue.adds", name), count("workqueue.retries", name), queue.rateLimiter().toString(),
				workers);
	}

	private @Nullable Long count(String meter, String name) {
		if (this.meterRegistry == null) {
			return null;
		}
		Counter counter = this.meterRegistry.find(meter).tag("name", name).counter();
		return (counter != null) ? (long) counter.count() : null;
	}

	/**
	 * All queues.
	 *
	 * @param queues the queues by name
	 */
	public record QueuesDescriptor(Map<String, QueueDescriptor> queues) {

	}

	/**
	 * One queue.
	 *
	 * @param depth items queued
	 * @param waiting items waiting for a delay
	 * @param shuttingDown whether the queue is shutting down
	 * @param adds adds since start, when metrics are on
	 * @param retries delayed and rate-limited adds since start, when metrics are on
	 * @param rateLimiter the rate limiter
	 * @param workers the workers, if the queue has a {@code @QueueWorker}
	 */
	public record QueueDescriptor(int depth, int waiting, boolean shuttingDown, @Nullable Long adds,
			@Nullable Long retries, String rateLimiter, @Nullable WorkersDescriptor workers) {

	}

	/**
	 * The workers of a queue.
	 *
	 * @param method the worker method
	 * @param configured the number of worker threads
	 * @param live worker threads alive
	 * @param processing items being processed
	 * @param paused whether the workers are paused
	 * @param longestRunningSeconds age of the oldest item being processed
	 * @param outcomes what happened to the processed items
	 */
	public record WorkersDescriptor(String method, int configured, int live, int processing, boolean paused,
			double longestRunningSeconds, QueueWorkerContainer.Outcomes outcomes) {

	}

}
