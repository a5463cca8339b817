package io.github.workqueue.kubernetes;

import java.util.List;
import java.util.Optional;

import io.fabric8.kubernetes.api.model.HasMetadata;

/**
 * Reads the objects an informer keeps in its cache, so that a worker reads the latest
 * state of the object it reconciles without asking the API server. Injectable as the bean
 * {@code <queue>Lister}, typed by the informer's model class (or
 * {@code GenericKubernetesResource}).
 *
 * <p>
 * <b>Concurrency.</b> Thread-safe; each read sees the cache as the informer last updated
 * it, which may lag the API server.
 *
 * @param <T> the type of the objects
 */
public interface KubernetesLister<T extends HasMetadata> {

	/**
	 * The object of a key, as cached now.
	 * @param key the key
	 * @return the object, or empty if the cache has none (deleted, or not synced yet)
	 */
	Optional<T> get(ObjectKey key);

	/**
	 * The last state of an object whose deletion the informer saw, while its key has no
	 * object in the cache: what a controller cleans up after (client-go hands it to the
	 * delete handler, tombstone or not). Kept until the key was processed with nothing
	 * pending (no retry or requeue, no event meanwhile); at most the 10,000 newest, for
	 * keys processed on another replica.
	 * @param key the key
	 * @return its last state, or empty
	 */
	Optional<T> deleted(ObjectKey key);

	/**
	 * Every cached object.
	 * @return the objects
	 */
	List<T> list();

	/**
	 * The cached objects of one namespace.
	 * @param namespace the namespace
	 * @return the objects
	 */
	List<T> list(String namespace);

	/**
	 * The cached objects an index maps a value to; {@code namespace} is the index every
	 * informer has.
	 * @param index the index's name
	 * @param value the value
	 * @return the objects
	 */
	List<T> byIndex(String index, String value);

	/**
	 * Whether the informer has listed every object once since it started.
	 * @return whether its cache is complete
	 */
	boolean hasSynced();

}
