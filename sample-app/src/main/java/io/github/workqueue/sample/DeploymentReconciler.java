package io.github.workqueue.sample;

import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;

import org.springframework.stereotype.Component;

import io.github.workqueue.spring.QueueWorker;
import io.github.workqueue.spring.WorkContext;

/**
 * Reconciles one deployment key: reads the latest desired state and applies it. Many
 * updates of one key while it waits collapse into one reconcile; failures are retried
 * with the queue's backoff, at the priority the key had; {@link Resync} queues every key
 * again periodically, at low priority.
 */
@Component
public class DeploymentReconciler {

	private static final Log logger = LogFactory.getLog(DeploymentReconciler.class);

	private final DeploymentStore store;

	private final FlakyDownstream downstream;

	public DeploymentReconciler(DeploymentStore store, FlakyDownstream downstream) {
		this.store = store;
		this.downstream = downstream;
	}

	@QueueWorker("deployments")
	public void reconcile(String key, WorkContext context) throws InterruptedException {
		Deployment deployment = this.store.get(key);
		if (deployment == null) {
			return;
		}
		this.downstream.apply(deployment);
		this.store.reconciled(key, deployment.generation());
		logger.info("Reconciled " + key + " (priority " + context.priority() + ", attempt " + context.attempt()
				+ "): replicas=" + deployment.replicas() + " generation=" + deployment.generation()
				+ " (generations since last reconcile: " + (deployment.generation() - deployment.reconciledGeneration())
				+ ")");
	}

}
