package io.github.workqueue.kubernetes;

import java.util.function.Consumer;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.client.KubernetesClient;

/**
 * A finalizer's life in a reconcile: added on first sight, so that the API server keeps a
 * deleted object until its cleanup ran; on deletion, the cleanup, then the finalizer's
 * removal, which lets the object go. Each write carries the object's resource version: a
 * change made meanwhile fails it with a conflict, which the worker retries (its next
 * attempt reads the newer state from the lister).
 *
 * <pre class="code">
 * &#64;QueueWorker("shops")
 * void reconcile(ObjectKey key) {
 *     Shop shop = shopsLister.get(key).orElse(null);
 *     if (shop == null || Finalizers.finalizeIfDeleted(client, shop, FINALIZER, this::cleanUp)) {
 *         return;
 *     }
 *     shop = Finalizers.ensure(client, shop, FINALIZER);
 *     ...
 * }
 * </pre>
 *
 * <p>
 * <b>Concurrency.</b> Stateless; safe from any thread.
 */
public final class Finalizers {

	private Finalizers() {
	}

	/**
	 * Adds the finalizer to an object that lacks it and is not being deleted.
	 * @param client the client
	 * @param object the object, as the lister has it
	 * @param finalizer the finalizer, such as {@code shops.example.io/cleanup}
	 * @param <T> the object's type
	 * @return the object as written, or the object itself if nothing was to be added
	 */
	public static <T extends HasMetadata> T ensure(KubernetesClient client, T object, String finalizer) {
		if (object.isMarkedForDeletion() || object.hasFinalizer(finalizer)) {
			return object;
		}
		return client.resource(object).edit((latest) -> {
			latest.addFinalizer(finalizer);
			return latest;
		});
	}

	/**
	 * For an object being deleted: runs the cleanup if the object still has the
	 * finalizer, then removes it.
	 * @param client the client
	 * @param object the object, as the lister has it
	 * @param finalizer the finalizer
	 * @param cleanup what must happen before the object goes; an exception leaves the
	 * finalizer, and the worker retries
	 * @param <T> the object's type
	 * @return whether the object is being deleted (the reconcile has nothing more to do)
	 */
	public static <T extends HasMetadata> boolean finalizeIfDeleted(KubernetesClient client, T object, String finalizer,
			Consumer<? super T> cleanup) {
		if (!object.isMarkedForDeletion()) {
			return false;
		}
		if (object.hasFinalizer(finalizer)) {
			cleanup.accept(object);
			client.resource(object).edit((latest) -> {
				latest.removeFinalizer(finalizer);
				return latest;
			});
		}
		return true;
	}

}
