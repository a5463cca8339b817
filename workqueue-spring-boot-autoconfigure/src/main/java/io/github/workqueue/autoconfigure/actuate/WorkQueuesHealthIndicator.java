package io.github.workqueue.autoconfigure.actuate;

import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.TreeMap;

import org.jspecify.annotations.Nullable;

import org.springframework.boot.health.contributor.AbstractHealthIndicator;
import org.springframework.boot.health.contributor.Health;

import io.github.workqueue.autoconfigure.WorkQueueRegistry;
import io.github.workqueue.core.RateLimitingQueue;
import io.github.workqueue.spring.QueueWorkerContainer;
import io.github.workqueue.spring.QueueWorkerRegistry;

/**
 * DOWN when a running queue's worker threads died, when Redis cannot be reached for a
 * queue shared on Redis, or, if {@code workqueue.health.stuck-threshold} is set, when an
 * item has been processing longer than that. Details give each queue's status, its
 * problem if any, and its workers. A Redis queue's check takes at most about two seconds,
 * and none while its instance already knows Redis is down.
 */
public class WorkQueuesHealthIndicator extends AbstractHealthIndicator {

	private final QueueWorkerRegistry workers;

	private final WorkQueueRegistry queues;

	private final @Nullable Duration stuckThreshold;

	private final SharedQueueView sharedView = new SharedQueueView();

	public WorkQueuesHealthIndicator(QueueWorkerRegistry workers, WorkQueueRegistry queues,
			@Nullable Duration stuckThreshold) {
		super("Work queue health check failed");
		this.workers = workers;
		this.queues = queues;
		this.stuckThreshold = stuckThreshold;
	}

	@Override
	protected void doHealthCheck(Health.Builder builder) {
		Map<String, Object> queues = new TreeMap<>();
		boolean down = false;
		for (QueueWorkerContainer container : this.workers.getContainers()) {
			String problem = problem(container);
			down |= problem != null;
			Map<String, Object> details = new LinkedHashMap<>();
			details.put("status", (problem != null) ? "DOWN" : "UP");
			if (problem != null) {
				details.put("problem", problem);
			}
			details.put("workers", container.workers());
			details.put("liveWorkers", container.liveWorkers());
			details.put("replacedWorkers", container.replacedWorkers());
			details.put("paused", container.isPaused());
			details.put("longestRunningSeconds", container.longestRunning().toMillis() / 1000.0);
			queues.put(container.queueName(), details);
		}
		Map<String, RateLimitingQueue<?>> all = this.queues.getQueues();
		this.sharedView.startReads(all.values());
		long deadline = System.nanoTime() + SharedQueueView.BOUND.toNanos();
		for (Map.Entry<String, RateLimitingQueue<?>> queue : all.entrySet()) {
			String problem = this.sharedView.problem(queue.getValue(), deadline);
			if (problem != null) {
				down = true;
				@SuppressWarnings("unchecked")
				Map<String, Object> details = (Map<String, Object>) queues.computeIfAbsent(queue.getKey(),
						(name) -> new LinkedHashMap<String, Object>());
				details.put("status", "DOWN");
				details.put("problem", problem);
			}
		}
		(down ? builder.down() : builder.up()).withDetail("queues", queues);
	}

	private @Nullable String problem(QueueWorkerContainer container) {
		if (!container.isRunning()) {
			return null;
		}
		if (container.liveWorkers() < container.workers()) {
			return "workers stopped unexpectedly: " + container.liveWorkers() + " of " + container.workers() + " alive";
		}
		if (this.stuckThreshold != null && container.longestRunning().compareTo(this.stuckThreshold) > 0) {
			return "an item has been processing for " + container.longestRunning().toSeconds()
					+ "s, over the stuck threshold of " + this.stuckThreshold;
		}
		return null;
	}

}
