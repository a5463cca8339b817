package io.github.workqueue.sample;

import java.util.Collection;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;

import org.jspecify.annotations.Nullable;

import org.springframework.stereotype.Component;

/**
 * The in-memory store of desired and reconciled state.
 *
 * <p>
 * <b>Concurrency.</b> Thread-safe: each record changes atomically.
 */
@Component
public class DeploymentStore {

	private final Map<String, Deployment> deployments = new ConcurrentHashMap<>();

	/**
	 * Records a new desired state.
	 * @param key the deployment's key
	 * @param replicas the desired replicas
	 * @return the updated record
	 */
	public Deployment update(String key, int replicas) {
		return this.deployments.compute(key, (k, old) -> (old != null)
				? new Deployment(k, replicas, old.generation() + 1, old.reconciledGeneration(), old.reconciles())
				: new Deployment(k, replicas, 1, 0, 0));
	}

	/**
	 * Records that a generation was applied downstream.
	 * @param key the deployment's key
	 * @param generation the generation applied
	 */
	public void reconciled(String key, long generation) {
		this.deployments.computeIfPresent(key, (k, old) -> new Deployment(k, old.replicas(), old.generation(),
				Math.max(generation, old.reconciledGeneration()), old.reconciles() + 1));
	}

	public @Nullable Deployment get(String key) {
		return this.deployments.get(key);
	}

	public Collection<Deployment> all() {
		return new TreeMap<>(this.deployments).values();
	}

}
