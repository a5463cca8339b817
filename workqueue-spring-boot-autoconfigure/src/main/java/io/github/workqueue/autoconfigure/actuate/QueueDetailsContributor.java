package io.github.workqueue.autoconfigure.actuate;

import java.util.Map;

/**
 * Adds a section of its own to what the {@code workqueues} endpoint (and so the
 * dashboard) says of a queue, under {@code details.<name>}: a module that feeds queues,
 * such as the Kubernetes informers, tells what it knows of them. A bean of this type is
 * picked up by the endpoint.
 *
 * <p>
 * Implementations are called on each read of the endpoint and must answer quickly, from
 * what they hold in memory; they must be thread-safe.
 */
@FunctionalInterface
public interface QueueDetailsContributor {

	/**
	 * The sections to add for a queue, by name; empty when this contributor knows nothing
	 * of the queue. Values are written as JSON.
	 * @param queueName the queue
	 * @return the sections
	 */
	Map<String, Object> details(String queueName);

}
