package io.github.workqueue.spring;

import java.util.Collection;

import org.jspecify.annotations.Nullable;

/**
 * Owns the {@link QueueWorkerContainer}s: starts them after the application context is
 * refreshed and stops them, draining, on shutdown.
 */
public interface QueueWorkerRegistry {

	/**
	 * Returns every container.
	 * @return the containers, in queue name order
	 */
	Collection<QueueWorkerContainer> getContainers();

	/**
	 * Returns the container of a queue.
	 * @param queueName the queue's name
	 * @return the container, or null if the queue has no worker
	 */
	@Nullable QueueWorkerContainer getContainer(String queueName);

	/**
	 * Has the container of a queue start held: its workers take nothing until
	 * {@link QueueWorkerContainer#release(String)} of the same reason. For whoever
	 * decides when a queue's workers may run (a leader election, a cache that must be
	 * complete first).
	 * @param queueName the queue's name
	 * @param reason why, as {@link QueueWorkerContainer#hold(String)} takes it
	 * @throws IllegalStateException if the containers were started already
	 */
	void startHeld(String queueName, String reason);

}
