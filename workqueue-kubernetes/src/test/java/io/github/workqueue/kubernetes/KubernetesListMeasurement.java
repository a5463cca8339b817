package io.github.workqueue.kubernetes;

import java.lang.management.ManagementFactory;
import java.lang.management.MemoryMXBean;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;

import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.ConfigMapBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.server.mock.KubernetesCrudDispatcher;
import io.fabric8.kubernetes.client.server.mock.KubernetesMockServer;
import io.fabric8.mockwebserver.Context;
import io.fabric8.mockwebserver.MockWebServer;

import org.springframework.boot.WebApplicationType;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

import io.github.workqueue.spring.QueueWorker;

/**
 * How long a controller takes to start on many objects, and what it holds per object:
 * {@code objects} ConfigMaps (10,000 by default) exist in fabric8's mock API server
 * before the application starts; the time is from the start of the application to the
 * moment every key has been processed once (the informer's first list, the adds, four
 * workers reading each object from the lister), the memory is the used heap after a full
 * GC with the application running, less the same before it started (the application's own
 * footprint included: run two sizes and take the difference per object for the informer's
 * cache, the queue's entries and the lister). Every key must be processed exactly once.
 * Run with:
 *
 * <pre>
 * ./mvnw -q -pl workqueue-kubernetes -am -DskipTests install
 * ./mvnw -q -pl workqueue-kubernetes exec:java -Dexec.classpathScope=test \
 *     -Dexec.mainClass=io.github.workqueue.kubernetes.KubernetesListMeasurement -Dobjects=10000
 * </pre>
 */
public final class KubernetesListMeasurement {

	private static final Map<ObjectKey, AtomicInteger> PROCESSED = new ConcurrentHashMap<>();

	private KubernetesListMeasurement() {
	}

	public static void main(String[] args) throws Exception {
		int objects = Integer.getInteger("objects", 10_000);
		KubernetesMockServer server = new KubernetesMockServer(new Context(), new MockWebServer(),
				new java.util.HashMap<>(), new KubernetesCrudDispatcher(), false);
		server.init();
		try (KubernetesClient client = server.createClient()) {
			long createStart = System.nanoTime();
			for (int i = 0; i < objects; i++) {
				ConfigMap configMap = new ConfigMapBuilder().withNewMetadata()
					.withName("cm-" + i)
					.withNamespace("bench")
					.addToLabels("app", "bench")
					.endMetadata()
					.addToData("replicas", Integer.toString(i % 7))
					.build();
				client.configMaps().inNamespace("bench").resource(configMap).create();
			}
			System.out.printf("created %,d ConfigMaps in the mock API server in %.1f s%n", objects,
					(System.nanoTime() - createStart) / 1e9);
			MemoryMXBean memory = ManagementFactory.getMemoryMXBean();
			long heapBefore = usedAfterGc(memory);
			long start = System.nanoTime();
			try (ConfigurableApplicationContext context = new SpringApplicationBuilder(MeasurementApplication.class)
				.web(WebApplicationType.NONE)
				.initializers((application) -> application.getBeanFactory()
					.registerSingleton("kubernetesClient", server.createClient()))
				.run("--spring.main.banner-mode=off", "--logging.level.root=WARN",
						"--workqueue.queues.configmaps.workers=4",
						"--workqueue.kubernetes.informers.configmaps.model-class=io.fabric8.kubernetes.api.model.ConfigMap",
						"--workqueue.kubernetes.informers.configmaps.namespaces=bench")) {
				while (PROCESSED.size() < objects && context.isActive()) {
					Thread.sleep(1);
				}
				double seconds = (System.nanoTime() - start) / 1e9;
				long heapAfter = usedAfterGc(memory);
				long twice = PROCESSED.values().stream().filter((count) -> count.get() != 1).count();
				System.out.printf(
						"%,d objects: every key processed in %.2f s from the application's start (%.0f keys/s); "
								+ "heap %,d bytes more with the application running (%,d per object, the "
								+ "application's own included); keys processed other than once: %d%n",
						objects, seconds, objects / seconds, heapAfter - heapBefore, (heapAfter - heapBefore) / objects,
						twice);
				if (twice != 0) {
					throw new IllegalStateException(twice + " keys were processed other than once");
				}
			}
		}
		finally {
			server.destroy();
		}
	}

	private static long usedAfterGc(MemoryMXBean memory) throws InterruptedException {
		for (int i = 0; i < 3; i++) {
			System.gc();
			Thread.sleep(200);
		}
		return memory.getHeapMemoryUsage().getUsed();
	}

	@Configuration(proxyBeanMethods = false)
	@EnableAutoConfiguration
	static class MeasurementApplication {

		@Bean
		Reconciler reconciler(KubernetesLister<ConfigMap> configmapsLister) {
			return new Reconciler(configmapsLister);
		}

	}

	static final class Reconciler {

		private final KubernetesLister<ConfigMap> lister;

		Reconciler(KubernetesLister<ConfigMap> lister) {
			this.lister = lister;
		}

		@QueueWorker("configmaps")
		void reconcile(ObjectKey key) {
			if (this.lister.get(key).isEmpty()) {
				throw new IllegalStateException("No " + key + " in the cache");
			}
			PROCESSED.computeIfAbsent(key, (k) -> new AtomicInteger()).incrementAndGet();
		}

	}

}
