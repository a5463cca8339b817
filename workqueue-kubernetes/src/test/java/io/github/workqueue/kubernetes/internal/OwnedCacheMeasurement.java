package io.github.workqueue.kubernetes.internal;

import java.lang.management.ManagementFactory;
import java.lang.management.MemoryMXBean;
import java.util.function.Consumer;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.SecretBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.informers.ResourceEventHandler;
import io.fabric8.kubernetes.client.informers.SharedIndexInformer;
import io.fabric8.kubernetes.client.server.mock.KubernetesCrudDispatcher;
import io.fabric8.kubernetes.client.server.mock.KubernetesMockServer;
import io.fabric8.mockwebserver.Context;
import io.fabric8.mockwebserver.MockWebServer;

/**
 * What an owned resource's informer holds per object, with the whole objects cached
 * (fabric8's default store) and with {@link OwnerReferencesStore}: {@code objects}
 * Secrets (10,000 by default, each with an owner reference, a label and
 * {@code payload-bytes} of data, 512 by default) in fabric8's mock API server; for each
 * store, the used heap after a full GC with the synced informer, less the same before it.
 * Run with:
 *
 * <pre>
 * ./mvnw -q -pl workqueue-kubernetes -am -DskipTests install
 * ./mvnw -q -pl workqueue-kubernetes exec:java -Dexec.classpathScope=test \
 *     -Dexec.mainClass=io.github.workqueue.kubernetes.internal.OwnedCacheMeasurement -Dobjects=10000
 * </pre>
 */
public final class OwnedCacheMeasurement {

	private OwnedCacheMeasurement() {
	}

	public static void main(String[] args) throws Exception {
		int objects = Integer.getInteger("objects", 10_000);
		String payload = "x".repeat(Integer.getInteger("payload-bytes", 512));
		KubernetesMockServer server = new KubernetesMockServer(new Context(), new MockWebServer(),
				new java.util.HashMap<>(), new KubernetesCrudDispatcher(), false);
		server.init();
		try (KubernetesClient client = server.createClient()) {
			for (int i = 0; i < objects; i++) {
				client.secrets()
					.inNamespace("bench")
					.resource(new SecretBuilder().withNewMetadata()
						.withName("secret-" + i)
						.addToLabels("app", "bench")
						.addNewOwnerReference()
						.withApiVersion("v1")
						.withKind("ConfigMap")
						.withName("owner-" + (i % 100))
						.withUid("uid-" + (i % 100))
						.withController(true)
						.endOwnerReference()
						.endMetadata()
						.addToStringData("payload", payload)
						.build())
					.create();
			}
			MemoryMXBean memory = ManagementFactory.getMemoryMXBean();
			measure("whole objects (fabric8's store)", objects, memory, client, (informer) -> {
			});
			measure("owner references only (OwnerReferencesStore)", objects, memory, client,
					(informer) -> informer.itemStore(new OwnerReferencesStore()));
		}
		finally {
			server.destroy();
		}
	}

	private static void measure(String store, int objects, MemoryMXBean memory, KubernetesClient client,
			Consumer<SharedIndexInformer<GenericKubernetesResource>> setUp) throws Exception {
		long before = usedAfterGc(memory);
		SharedIndexInformer<GenericKubernetesResource> informer = client.genericKubernetesResources("v1", "Secret")
			.inNamespace("bench")
			.runnableInformer(0);
		setUp.accept(informer);
		informer.addEventHandler(new ResourceEventHandler<>() {
			@Override
			public void onAdd(GenericKubernetesResource object) {
			}

			@Override
			public void onUpdate(GenericKubernetesResource before, GenericKubernetesResource after) {
			}

			@Override
			public void onDelete(GenericKubernetesResource object, boolean unknown) {
			}
		});
		informer.start().toCompletableFuture().get();
		while (informer.getIndexer().list().size() < objects) {
			Thread.sleep(10);
		}
		long after = usedAfterGc(memory);
		System.out.printf("%s: %,d objects cached, %,d bytes of heap, %,d per object%n", store, objects, after - before,
				(after - before) / objects);
		informer.stop();
	}

	private static long usedAfterGc(MemoryMXBean memory) throws InterruptedException {
		for (int i = 0; i < 3; i++) {
			System.gc();
			Thread.sleep(200);
		}
		return memory.getHeapMemoryUsage().getUsed();
	}

}
