package io.github.workqueue.kubernetes.autoconfigure;

import io.fabric8.kubernetes.api.model.HasMetadata;

import org.springframework.boot.health.contributor.AbstractHealthIndicator;
import org.springframework.boot.health.contributor.Health;

import io.github.workqueue.kubernetes.internal.InformerFeed;
import io.github.workqueue.kubernetes.internal.KubernetesInformers;

/**
 * {@code kubernetesInformers} in the health: DOWN until every informer has listed its
 * objects once (its cache is complete), UP after; with details per queue: the resource,
 * synced, watching (false while a watch restarts), cached objects, events by type and the
 * last event's time, and whether this replica leads.
 */
final class KubernetesInformersHealthIndicator extends AbstractHealthIndicator {

	private final KubernetesInformers informers;

	KubernetesInformersHealthIndicator(KubernetesInformers informers) {
		super("Kubernetes informers health check failed");
		this.informers = informers;
	}

	@Override
	protected void doHealthCheck(Health.Builder builder) {
		boolean synced = true;
		for (InformerFeed<? extends HasMetadata> feed : this.informers.feeds()) {
			builder.withDetail(feed.queueName(), feed.describe());
			synced &= feed.hasSynced();
		}
		builder.withDetail("leading", this.informers.isLeading());
		if (synced) {
			builder.up();
		}
		else {
			builder.down();
		}
	}

}
