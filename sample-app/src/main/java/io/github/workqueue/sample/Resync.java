package io.github.workqueue.sample;

import org.springframework.scheduling.annotation.Scheduled;
import org.springframework.stereotype.Component;

import io.github.workqueue.core.AddOptions;
import io.github.workqueue.core.RateLimitingQueue;

/**
 * Queues every known deployment again each resync period, at low priority, as an
 * informer's resync does: a key already queued for a user's change keeps its higher
 * priority, and user changes added during a resync overtake it.
 */
@Component
public class Resync {

	private final DeploymentStore store;

	private final RateLimitingQueue<String> deployments;

	public Resync(DeploymentStore store, RateLimitingQueue<String> deployments) {
		this.store = store;
		this.deployments = deployments;
	}

	@Scheduled(fixedDelayString = "${sample.resync-period:5m}", initialDelayString = "${sample.resync-period:5m}")
	public void resyncAll() {
		for (Deployment deployment : this.store.all()) {
			this.deployments.add(deployment.key(), AddOptions.priority(Priorities.RESYNC));
		}
	}

}
