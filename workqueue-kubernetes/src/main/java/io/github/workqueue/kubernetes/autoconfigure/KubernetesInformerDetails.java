package io.github.workqueue.kubernetes.autoconfigure;

import java.util.LinkedHashMap;
import java.util.Map;

import io.fabric8.kubernetes.api.model.HasMetadata;

import io.github.workqueue.autoconfigure.actuate.QueueDetailsContributor;
import io.github.workqueue.kubernetes.internal.InformerFeed;
import io.github.workqueue.kubernetes.internal.KubernetesInformers;

/**
 * The informer of an informer-fed queue in the {@code workqueues} endpoint and the
 * dashboard, under {@code details.informer}: its resource, synced and watching, cached
 * objects, events by type, the last event's time and whether this replica leads.
 */
final class KubernetesInformerDetails implements QueueDetailsContributor {

	private final KubernetesInformers informers;

	KubernetesInformerDetails(KubernetesInformers informers) {
		this.informers = informers;
	}

	@Override
	public Map<String, Object> details(String queueName) {
		for (InformerFeed<? extends HasMetadata> feed : this.informers.feeds()) {
			if (feed.queueName().equals(queueName)) {
				Map<String, Object> informer = new LinkedHashMap<>(feed.describe());
				informer.put("leading", this.informers.isLeading());
				return Map.of("informer", informer);
			}
		}
		return Map.of();
	}

}
