package io.github.workqueue.autoconfigure.actuate;

import java.util.List;
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
 * "pause"}} or {@code "resume"}). A queue shared on Redis also shows its queue-wide
 * figures, every instance's leases and its parked items, and takes
 * {@code "requeue-parked"} and {@code "drop-parked"} with the parked {@code "item"} as
 * stored.
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
	public QueueDescriptor changeWorkers(@Selector String name, String action, @Nullable String item) {
		RateLimitingQueue<?> queue = this.queues.getQueue(name);
		if (queue == null) {
			throw new InvalidEndpointRequestException("No queue named '" + name + "'", "No such queue");
		}
		String verb = action.trim().toLowerCase(Locale.ROOT);
		if (verb.equals("requeue-parked") || verb.equals("drop-parked")) {
			return changeParked(name, queue, verb.equals("requeue-parked"), item);
		}
		QueueWorkerContainer container = this.workers.getContainer(name);
		if (container == null) {
			throw new InvalidEndpointRequestException("Queue '" + name + "' has no @QueueWorker to pause or resume",
					"Queue has no workers");
		}
		switch (verb) {
			case "pause" -> container.pause();
			case "resume" -> container.resume();
			default -> throw new InvalidEndpointRequestException(
					"Unknown action '" + action + "': use \"pause\", \"resume\", \"requeue-parked\" or \"drop-parked\"",
					"Unknown action");
		}
		return describe(name, queue);
	}

	private QueueDescriptor changeParked(String name, RateLimitingQueue<?> queue, boolean requeue,
			@Nullable String item) {
		if (!SharedQueueView.isShared(queue)) {
			throw new InvalidEndpointRequestException(
					"Queue '" + name + "' is in memory: only a Redis queue parks items", "Not a Redis queue");
		}
		if (item == null || item.isEmpty()) {
			throw new InvalidEndpointRequestException(
					"Missing \"item\": send the parked item as stored, a key of shared.parked", "Missing item");
		}
		if (!SharedQueueView.changeParked(queue, requeue, item)) {
			throw new InvalidEndpointRequestException("Item '" + item + "' is not parked in queue '" + name + "'",
					"Item not parked");
		}
		return describe(name, queue);
	}

	private QueueDescriptor describe(String name, RateLimitingQueue<?> queue) {
		QueueWorkerContainer container = this.workers.getContainer(name);
		WorkersDescriptor workers = (container != null) ? new WorkersDescriptor(container.method(), container.workers(),
				container.liveWorkers(), container.replacedWorkers(), container.inFlight(), container.isPaused(),
				container.longestRunning().toMillis() / 1000.0, container.outcomes()) : null;
		return new QueueDescriptor(queue.len(), queue.lenByPriority(), queue.lenByFairnessKey(), queue.waitingLen(),
				queue.isShuttingDown(), count("workqueue.adds", name), count("workqueue.retries", name),
				queue.rateLimiter().toString(), workers, SharedQueueView.describe(queue));
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
	 * @param depthByPriority items queued per priority, highest first
	 * @param depthByFairnessKey items queued per first fairness key, empty without
	 * fairness
	 * @param waiting items waiting for a delay
	 * @param shuttingDown whether the queue is shutting down
	 * @param adds adds since start, when metrics are on
	 * @param retries delayed and rate-limited adds since start, when metrics are on
	 * @param rateLimiter the rate limiter
	 * @param workers the workers, if the queue has a {@code @QueueWorker}
	 * @param shared what Redis holds, if the queue is shared on Redis
	 */
	public record QueueDescriptor(int depth, Map<Integer, Integer> depthByPriority,
			Map<String, Integer> depthByFairnessKey, int waiting, boolean shuttingDown, @Nullable Long adds,
			@Nullable Long retries, String rateLimiter, @Nullable WorkersDescriptor workers,
			@Nullable SharedDescriptor shared) {

	}

	/**
	 * A queue shared on Redis, as Redis sees it: queue-wide figures, every instance's
	 * leases and the parked items.
	 *
	 * @param queued items ready and not taken
	 * @param waiting items waiting for their ready time
	 * @param inFlight items under a lease, on any instance
	 * @param redeliveries items delivered again after their lease expired
	 * @param rejectedDones {@code done} calls refused because the lease had expired
	 * @param leases the items under a lease, with their holders
	 * @param parked parked items (as stored) with the reason
	 */
	public record SharedDescriptor(long queued, long waiting, long inFlight, long redeliveries, long rejectedDones,
			List<LeaseDescriptor> leases, Map<String, String> parked) {

	}

	/**
	 * An item under a lease.
	 *
	 * @param item the item as stored
	 * @param holder the instance holding it
	 * @param leaseAgeSeconds how long it has been held, on Redis's clock
	 * @param expiresInSeconds how long until the lease expires unless renewed
	 */
	public record LeaseDescriptor(String item, String holder, double leaseAgeSeconds, double expiresInSeconds) {

	}

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
	 * @param outcomes what happened to the processed items
	 */
	public record WorkersDescriptor(String method, int configured, int live, long replaced, int processing,
			boolean paused, double longestRunningSeconds, QueueWorkerContainer.Outcomes outcomes) {

	}

}
