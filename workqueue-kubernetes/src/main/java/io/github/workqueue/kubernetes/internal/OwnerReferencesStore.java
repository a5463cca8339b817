package io.github.workqueue.kubernetes.internal;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.stream.Stream;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.ObjectMeta;
import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import io.fabric8.kubernetes.client.informers.cache.Cache;
import io.fabric8.kubernetes.client.informers.cache.ItemStore;

/**
 * The cache of an owned resource's informer: of each object, only what mapping it to its
 * owner's key needs (its name, namespace, uid, resource version and owner references),
 * not its spec, status or data. The informer's events for the object still carry its
 * whole new state; the states this store gives back (an update's old state, a delete's
 * last state) are the trimmed ones.
 *
 * <p>
 * <b>Concurrency.</b> Thread-safe: a concurrent map; the informer writes one object at a
 * time.
 */
final class OwnerReferencesStore implements ItemStore<GenericKubernetesResource> {

	private final Map<String, GenericKubernetesResource> items = new ConcurrentHashMap<>();

	@Override
	public String getKey(GenericKubernetesResource object) {
		return Cache.metaNamespaceKeyFunc(object);
	}

	@Override
	public GenericKubernetesResource put(String key, GenericKubernetesResource object) {
		return this.items.put(key, trimmed(object));
	}

	@Override
	public GenericKubernetesResource remove(String key) {
		return this.items.remove(key);
	}

	@Override
	public Stream<String> keySet() {
		return this.items.keySet().stream();
	}

	@Override
	public Stream<GenericKubernetesResource> values() {
		return this.items.values().stream();
	}

	@Override
	public int size() {
		return this.items.size();
	}

	@Override
	public GenericKubernetesResource get(String key) {
		return this.items.get(key);
	}

	static GenericKubernetesResource trimmed(GenericKubernetesResource object) {
		ObjectMeta metadata = object.getMetadata();
		GenericKubernetesResource trimmed = new GenericKubernetesResource();
		trimmed.setApiVersion(object.getApiVersion());
		trimmed.setKind(object.getKind());
		trimmed.setMetadata(new ObjectMetaBuilder().withName(metadata.getName())
			.withNamespace(metadata.getNamespace())
			.withUid(metadata.getUid())
			.withResourceVersion(metadata.getResourceVersion())
			.withOwnerReferences(metadata.getOwnerReferences())
			.build());
		return trimmed;
	}

}
