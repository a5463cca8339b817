package io.github.workqueue.sample;

import java.util.Collection;

import org.jspecify.annotations.Nullable;

/**
 * Desired and reconciled state of the deployments: where updates land and what the
 * reconciler reads. Implementations are thread-safe and change each record atomically.
 */
public interface DeploymentStore {

	/**
	 * Records a new desired state.
	 * @param key the deployment's key
	 * @param replicas the desired replicas
	 * @return the updated record
	 */
	Deployment update(String key, int replicas);

	/**
	 * Records that a generation was applied downstream.
	 * @param key the deployment's key
	 * @param generation the generation applied
	 */
	void reconciled(String key, long generation);

	@Nullable Deployment get(String key);

	Collection<Deployment> all();

}
