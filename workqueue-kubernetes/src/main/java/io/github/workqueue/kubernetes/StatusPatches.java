package io.github.workqueue.kubernetes;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.client.KubernetesClient;

/**
 * Writes an object's status without fighting whoever writes its spec: a merge patch of
 * the {@code status} subresource, without the resource version, so that a spec changed
 * meanwhile neither fails the write nor is undone by it (the object's kind must have the
 * status subresource, as custom resources declare it in their CRD).
 *
 * <p>
 * <b>Concurrency.</b> Stateless; safe from any thread.
 */
public final class StatusPatches {

	private StatusPatches() {
	}

	/**
	 * Patches the status of an object, as the given object holds it. The object itself is
	 * not changed: a copy without the resource version is sent.
	 * @param client the client
	 * @param object the object with the status to write
	 * @param <T> the object's type
	 * @return the object as the API server has it after the patch
	 */
	public static <T extends HasMetadata> T patch(KubernetesClient client, T object) {
		T copy = client.getKubernetesSerialization().clone(object);
		copy.getMetadata().setResourceVersion(null);
		return client.resource(copy).patchStatus();
	}

}
