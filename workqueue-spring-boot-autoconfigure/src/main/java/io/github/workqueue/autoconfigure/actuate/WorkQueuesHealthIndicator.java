package io.github.workqueue.autoconfigure.actuate;

import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;

import org.jspecify.annotations.Nullable;

import org.springframework.boot.health.contributor.AbstractHealthIndicator;
import org.springframework.boot.health.contributor.Health;

import io.github.workqueue.spring.QueueWorkerContainer;
import io.github.workqueue.spring.QueueWorkerRegistry;

/**
 * DOWN when a running queue's worker threads died, or, if
 * {@code workqueue.health.stuck-threshold} is set, when an item has been processing
 * longer than that. Details name each queue's problem.
 */
public class WorkQueuesHealthIndicator extends AbstractHealthIndicator {

	private final QueueWorkerRegistry workers;

	private final @Nullable Duration stuckThreshold;

	public WorkQueuesHealthIndicator(QueueWorkerRegistry workers, @Nullable Duration stuckThreshold) {
		super("Work queue health check failed");
		this.workers = workers;
		this.stuckThreshold = stuckThreshold;
	}

	@Override
	protected void doHealthCheck(Health.Builder builder) {
		Map<String, Object> problems = new LinkedHashMap<>();
		for (QueueWorkerContainer container : this.workers.getContainers()) {
			if (!container.isRunning()) {
				continue;
			}
			if (container.liveWorkers() < container.workers()) {
				problems.put(container.queueName(), "workers stopped unexpectedly: " + container.liveWorkers() + " of "
						+ container.workers() + " alive");
			}
			else if (this.stuckThreshold != null && container.longestRunning().compareTo(this.stuckThreshold) > 0) {
				problems.put(container.queueName(),
						"an item has been processing for " + container.longestRunning().toSeconds()
								+ "s, over the stuck threshold of " + this.stuckThreshold);
			}
		}
		if (problems.isEmpty()) {
			builder.up().withDetail("queues", this.workers.getContainers().size());
		}
		else {
			builder.down().withDetails(problems);
		}
	}

}
