package io.github.workqueue.kubernetes.internal;

import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.function.Function;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.OwnerReference;
import org.jspecify.annotations.Nullable;

import io.github.workqueue.kubernetes.ObjectKey;

/**
 * The keys of an owned object's controlling owner of the watched kind and group: the
 * owned object's namespace with the owner's name (the name alone for a cluster-scoped
 * kind), as client-go's {@code EnqueueRequestForOwner} with {@code OnlyControllerOwner}.
 *
 * <p>
 * <b>Concurrency.</b> Immutable.
 */
final class OwnerKeys implements Function<HasMetadata, Collection<ObjectKey>> {

	private final String kind;

	private final String group;

	private final boolean namespaced;

	/**
	 * @param apiVersion the watched kind's API version
	 * @param kind the watched kind
	 * @param namespaced whether objects of that kind live in namespaces
	 */
	OwnerKeys(String apiVersion, String kind, boolean namespaced) {
		this.kind = kind;
		this.group = groupOf(apiVersion);
		this.namespaced = namespaced;
	}

	@Override
	public Collection<ObjectKey> apply(HasMetadata object) {
		List<ObjectKey> keys = new ArrayList<>(1);
		for (OwnerReference owner : object.getMetadata().getOwnerReferences()) {
			if (Boolean.TRUE.equals(owner.getController()) && this.kind.equals(owner.getKind())
					&& this.group.equals(groupOf(owner.getApiVersion()))) {
				@Nullable String namespace = this.namespaced ? object.getMetadata().getNamespace() : null;
				keys.add(new ObjectKey(namespace, owner.getName()));
			}
		}
		return keys;
	}

	private static String groupOf(String apiVersion) {
		int slash = apiVersion.indexOf('/');
		return (slash < 0) ? "" : apiVersion.substring(0, slash);
	}

}
