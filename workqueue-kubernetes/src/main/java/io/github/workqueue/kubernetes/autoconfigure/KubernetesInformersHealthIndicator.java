package io.github.workqueue.kubernetes.autoconfigure;

import java.util.Map;

import io.fabric8.kubernetes.api.model.HasMetadata;

import org.springframework.boot.health.contributor.AbstractHealthIndicator;
import org.springframework.boot.health.contributor.Health;

import io.github.workqueue.kubernetes.internal.InformerFeed;
import io.github.workqueue.kubernetes.internal.KubernetesInformers;

/**
 * {@code kubernetesInformers} in the health: DOWN while an informer source has a problem
 * ({@link KubernetesInformers#problems()}): it has not listed its objects yet (at
 * startup; after {@code cache-sync-timeout} the detail says it is late), or it has failed
 * to list or watch for longer than {@code watch-outage-threshold}; each with its cause.
 * UP otherwise. Details per queue: the resource, synced, watching (false while a watch
 * restarts), cached objects, events by type, the last event's time, failures by reason
 * and the last failure; and whether this replica leads. DOWN rather than OUT_OF_SERVICE:
 * a replica whose cache is stale or incomplete cannot do its work, which is what DOWN
 * says to a readiness probe and to an operator.
 */
final class KubernetesInformersHealthIndicator extends AbstractHealthIndicator {

	private final KubernetesInformers informers;

	KubernetesInformersHealthIndicator(KubernetesInformers informers) {
		super("Kubernetes informers health check failed");
		this.informers = informers;
	}

	@Override
	protected void doHealthCheck(Health.Builder builder) {
		for (InformerFeed<? extends HasMetadata> feed : this.informers.feeds()) {
			builder.withDetail(feed.queueName(), feed.describe());
		}
		builder.withDetail("leading", this.informers.isLeading());
		Map<String, String> problems = this.informers.problems();
		if (problems.isEmpty()) {
			builder.up();
		}
		else {
			builder.down().withDetail("problems", problems);
		}
	}

}
