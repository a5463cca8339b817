package io.github.workqueue.sample;

import java.time.Duration;

import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;

import org.springframework.beans.factory.annotation.Value;
import org.springframework.stereotype.Component;

import io.github.workqueue.spring.QueueWorker;
import io.github.workqueue.spring.WorkResult;

/**
 * Reconciles one deployment key: reads the latest desired state and applies it. Many
 * updates of one key while it waits collapse into one reconcile; failures are retried
 * with the queue's backoff; a successful reconcile asks to be run again after the resync
 * period.
 */
@Component
public class DeploymentReconciler {

	private static final Log logger = LogFactory.getLog(DeploymentReconciler.class);

	private final DeploymentStore store;

	private final FlakyDownstream downstream;

	private final Duration resyncPeriod;

	public DeploymentReconciler(DeploymentStore store, FlakyDownstream downstream,
			@Value("${sample.resync-period:5m}") Duration resyncPeriod) {
		this.store = store;
		this.downstream = downstream;
		this.resyncPeriod = resyncPeriod;
	}

	@QueueWorker("deployments")
	public WorkResult reconcile(String key) throws InterruptedException {
		Deployment deployment = this.store.get(key);
		if (deployment == null) {
			return WorkResult.done();
		}
		this.downstream.apply(deployment);
		this.store.reconciled(key, deployment.generation());
		logger.info("Reconciled " + key + ": replicas=" + deployment.replicas() + " generation="
				+ deployment.generation() + " (generations since last reconcile: "
				+ (deployment.generation() - deployment.reconciledGeneration()) + ")");
		return WorkResult.requeueAfter(this.resyncPeriod);
	}

}
