package io.github.workqueue.sample;

import java.util.Collection;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;

import org.jspecify.annotations.Nullable;

import org.springframework.context.annotation.Profile;
import org.springframework.stereotype.Component;

/**
 * The store of one instance, in its memory: the default, when the queues are in memory
 * too.
 *
 * <p>
 * <b>Concurrency.</b> Thread-safe: each record changes atomically.
 */
@Component
@Profile("!redis")
public class InMemoryDeploymentStore implements DeploymentStore {

	private final Map<String, Deployment> deployments = new ConcurrentHashMap<>();

	@Override
	public Deployment update(String key, int replicas) {
		return this.deployments.compute(key, (k, old) -> (old != null)
				? new Deployment(k, replicas, old.generation() + 1, old.reconciledGeneration(), old.reconciles())
				: new Deployment(k, replicas, 1, 0, 0));
	}

	@Override
	public void reconciled(String key, long generation) {
		this.deployments.computeIfPresent(key, (k, old) -> new Deployment(k, old.replicas(), old.generation(),
				Math.max(generation, old.reconciledGeneration()), old.reconciles() + 1));
	}

	@Override
	public @Nullable Deployment get(String key) {
		return this.deployments.get(key);
	}

	@Override
	public Collection<Deployment> all() {
		return new TreeMap<>(this.deployments).values();
	}

}
