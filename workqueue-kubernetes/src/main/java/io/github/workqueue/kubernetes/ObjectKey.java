package io.github.workqueue.kubernetes;

import java.util.Objects;

import io.fabric8.kubernetes.api.model.HasMetadata;
import org.jspecify.annotations.Nullable;

/**
 * The key of a Kubernetes object in a queue: client-go's {@code namespace/name}, or
 * {@code name} alone for a cluster-scoped object ({@code MetaNamespaceKeyFunc}). Small,
 * immutable and compared by value, as a queue's items must be; on Redis it travels as
 * JSON ({@code {"namespace":"default","name":"web"}}).
 *
 * @param namespace the object's namespace, or {@code null} for a cluster-scoped object
 * @param name the object's name
 */
public record ObjectKey(@Nullable String namespace, String name) {

	public ObjectKey {
		Objects.requireNonNull(name, "name");
		if (name.isEmpty()) {
			throw new IllegalArgumentException("An object key needs a name");
		}
		if (namespace != null && namespace.isEmpty()) {
			namespace = null;
		}
	}

	/**
	 * The key of an object, from its metadata.
	 * @param object the object
	 * @return its key
	 */
	public static ObjectKey of(HasMetadata object) {
		return new ObjectKey(object.getMetadata().getNamespace(), object.getMetadata().getName());
	}

	/**
	 * Reads a key written by {@link #toString()}: {@code namespace/name} or {@code name}.
	 * @param key the key as text
	 * @return the key
	 */
	public static ObjectKey parse(String key) {
		int slash = key.indexOf('/');
		if (slash != key.lastIndexOf('/')) {
			throw new IllegalArgumentException("Not an object key (namespace/name or name): '" + key + "'");
		}
		return (slash < 0) ? new ObjectKey(null, key)
				: new ObjectKey(key.substring(0, slash), key.substring(slash + 1));
	}

	/**
	 * Returns client-go's form of the key.
	 * @return {@code namespace/name}, or {@code name} for a cluster-scoped object
	 */
	@Override
	public String toString() {
		return (this.namespace != null) ? this.namespace + "/" + this.name : this.name;
	}

}
