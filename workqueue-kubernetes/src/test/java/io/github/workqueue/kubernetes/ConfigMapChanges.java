package io.github.workqueue.kubernetes;

import java.util.Map;
import java.util.concurrent.atomic.AtomicBoolean;

import io.fabric8.kubernetes.api.model.ConfigMapBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;

/**
 * A stream of watch events for the tests: one of a namespace's ConfigMaps, chosen in
 * turn, written (created or updated) at a fixed pace on a thread of its own, until
 * closed.
 *
 * <p>
 * <b>Concurrency.</b> {@link #close()} may be called from any thread, more than once; the
 * writing thread stops after the write in progress.
 */
final class ConfigMapChanges implements AutoCloseable {

	private final AtomicBoolean changing = new AtomicBoolean(true);

	private ConfigMapChanges() {
	}

	/**
	 * Starts writing.
	 * @param client the client that writes, straight to the API server
	 * @param namespace the ConfigMaps' namespace
	 * @param configMaps how many ConfigMaps ({@code cm-0}, {@code cm-1}, ...)
	 * @param pauseMillis the pause after each write
	 * @return the running changes
	 */
	static ConfigMapChanges start(KubernetesClient client, String namespace, int configMaps, long pauseMillis) {
		ConfigMapChanges changes = new ConfigMapChanges();
		Thread thread = new Thread(() -> changes.write(client, namespace, configMaps, pauseMillis),
				"configmap-changes");
		thread.setDaemon(true);
		thread.start();
		return changes;
	}

	private void write(KubernetesClient client, String namespace, int configMaps, long pauseMillis) {
		for (long change = 0; this.changing.get(); change++) {
			try {
				client.configMaps()
					.inNamespace(namespace)
					.resource(new ConfigMapBuilder().withNewMetadata()
						.withName("cm-" + (change % configMaps))
						.endMetadata()
						.withData(Map.of("change", Long.toString(change)))
						.build())
					.createOr((existing) -> existing.update());
				Thread.sleep(pauseMillis);
			}
			catch (InterruptedException ex) {
				return;
			}
			catch (RuntimeException ex) {
				// A conflict: the next change comes anyway.
			}
		}
	}

	@Override
	public void close() {
		this.changing.set(false);
	}

}
