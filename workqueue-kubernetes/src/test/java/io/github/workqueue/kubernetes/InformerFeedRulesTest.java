package io.github.workqueue.kubernetes;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;

import io.fabric8.kubernetes.api.model.ConfigMapBuilder;
import io.fabric8.kubernetes.api.model.Namespace;
import io.fabric8.kubernetes.api.model.NamespaceBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import org.junit.jupiter.api.extension.ExtendWith;
import io.fabric8.kubernetes.client.server.mock.KubernetesMockServer;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

import io.github.workqueue.autoconfigure.WorkQueueAutoConfiguration;
import io.github.workqueue.kubernetes.WorkQueueKubernetesProperties.EventType;
import io.github.workqueue.kubernetes.autoconfigure.WorkQueueKubernetesAutoConfiguration;
import io.github.workqueue.kubernetes.internal.InformerFeed;
import io.github.workqueue.kubernetes.internal.KubernetesInformers;
import io.github.workqueue.spring.QueueWorker;
import io.github.workqueue.spring.QueueWorkerContainer;
import io.github.workqueue.spring.QueueWorkerRegistry;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * What keys an informer adds, and at which priority: a kind without
 * {@code metadata.generation} under {@code updates: generation-changed}; the key of a
 * cluster-scoped owner; a change made while a controller starts over many objects, which
 * goes ahead of the first list's keys.
 */
@ExtendWith(MockApiServer.class)
class InformerFeedRulesTest {

	static KubernetesMockServer server;

	static KubernetesClient client;

	/** The keys each worker took, in order. */
	static final List<ObjectKey> processed = new CopyOnWriteArrayList<>();

	/** The keys whose deletion a worker processed, reading the deleted state. */
	static final Set<ObjectKey> deletedSeen = ConcurrentHashMap.newKeySet();

	@BeforeEach
	void clear() {
		processed.clear();
		deletedSeen.clear();
	}

	private ApplicationContextRunner runner() {
		return new ApplicationContextRunner()
			.withConfiguration(
					AutoConfigurations.of(WorkQueueAutoConfiguration.class, WorkQueueKubernetesAutoConfiguration.class))
			.withBean(KubernetesClient.class, () -> server.createClient())
			.withUserConfiguration(Workers.class);
	}

	@Test
	void generationChangedShouldLetEveryUpdateOfAKindWithoutGenerationsThrough() {
		runner()
			.withPropertyValues("workqueue.kubernetes.informers.configmaps.api-version=v1",
					"workqueue.kubernetes.informers.configmaps.kind=ConfigMap",
					"workqueue.kubernetes.informers.configmaps.namespaces=generations",
					"workqueue.kubernetes.informers.configmaps.updates=generation-changed")
			.run((context) -> {
				InformerFeedTest.awaitWatching(context);
				ObjectKey key = new ObjectKey("generations", "settings");
				client.configMaps()
					.inNamespace("generations")
					.resource(new ConfigMapBuilder().withNewMetadata()
						.withName("settings")
						.endMetadata()
						.withData(Map.of("v", "1"))
						.build())
					.create();
				await().atMost(Duration.ofSeconds(10)).until(() -> count(key) == 1);
				client.configMaps().inNamespace("generations").withName("settings").edit((cm) -> {
					cm.getData().put("v", "2");
					return cm;
				});
				await().atMost(Duration.ofSeconds(10)).alias("the update of a ConfigMap").until(() -> count(key) == 2);
			});
	}

	@Test
	void theKeyOfAClusterScopedOwnerShouldHaveNoNamespace() {
		runner()
			.withPropertyValues(
					"workqueue.kubernetes.informers.namespaces.model-class=io.fabric8.kubernetes.api.model.Namespace",
					"workqueue.kubernetes.informers.namespaces.owns[0].api-version=v1",
					"workqueue.kubernetes.informers.namespaces.owns[0].kind=ConfigMap")
			.run((context) -> {
				InformerFeedTest.awaitWatching(context);
				Namespace owner = client.namespaces()
					.resource(new NamespaceBuilder().withNewMetadata().withName("tenant-1").endMetadata().build())
					.create();
				await().atMost(Duration.ofSeconds(10)).until(() -> count(new ObjectKey(null, "tenant-1")) == 1);
				client.configMaps()
					.inNamespace("tenant-1")
					.resource(new ConfigMapBuilder().withNewMetadata()
						.withName("quota")
						.addNewOwnerReference()
						.withApiVersion("v1")
						.withKind("Namespace")
						.withName("tenant-1")
						.withUid(owner.getMetadata().getUid())
						.withController(true)
						.endOwnerReference()
						.endMetadata()
						.build())
					.create();
				await().atMost(Duration.ofSeconds(10)).until(() -> count(new ObjectKey(null, "tenant-1")) == 2);
				assertThat(processed).as("no key names the owned object's namespace for the owner")
					.doesNotContain(new ObjectKey("tenant-1", "tenant-1"));
			});
	}

	@Test
	void aChangeMadeWhileStartingShouldGoAheadOfTheFirstListsKeys() {
		int objects = 1000;
		for (int i = 0; i < objects; i++) {
			client.configMaps()
				.inNamespace("bulk")
				.resource(new ConfigMapBuilder().withNewMetadata().withName("cm-" + i).endMetadata().build())
				.create();
		}
		runner()
			.withPropertyValues("workqueue.kubernetes.informers.configmaps.api-version=v1",
					"workqueue.kubernetes.informers.configmaps.kind=ConfigMap",
					"workqueue.kubernetes.informers.configmaps.namespaces=bulk", "test.work-millis=2")
			.run((context) -> {
				await().atMost(Duration.ofSeconds(20)).until(() -> processed.size() > 10);
				// The worker is held while the change arrives: where it goes is then
				// timing-free.
				QueueWorkerContainer container = context.getBean(QueueWorkerRegistry.class).getContainer("configmaps");
				container.pause();
				assertThat(container.awaitIdle(Duration.ofSeconds(10))).isTrue();
				InformerFeed<?> feed = context.getBean(KubernetesInformers.class).feed("configmaps");
				long updates = feed.events(EventType.UPDATE);
				ObjectKey changed = new ObjectKey("bulk", "cm-" + (objects - 1));
				client.configMaps().inNamespace("bulk").withName("cm-" + (objects - 1)).edit((cm) -> {
					cm.setData(Map.of("changed", "yes"));
					return cm;
				});
				await().atMost(Duration.ofSeconds(20)).until(() -> feed.events(EventType.UPDATE) > updates);
				int before = processed.size();
				container.resume();
				await().atMost(Duration.ofSeconds(60)).until(() -> processed.contains(changed));
				int position = processed.indexOf(changed);
				System.out.println("list priority: a change made once " + before + " of " + objects
						+ " listed keys were processed was processed " + (position - before)
						+ " keys later (first in, first out: " + (objects - 1 - before) + ")");
				assertThat(position).as("the change goes ahead of the rest of the first list").isEqualTo(before);
			});
	}

	@Test
	void aDeletedObjectsStateShouldBeKeptUntilItsKeyWasProcessedWithNothingPending() {
		int objects = Integer.getInteger("test.deletions", 300);
		runner()
			.withPropertyValues("workqueue.kubernetes.informers.configmaps.api-version=v1",
					"workqueue.kubernetes.informers.configmaps.kind=ConfigMap",
					"workqueue.kubernetes.informers.configmaps.namespaces=forget",
					"workqueue.kubernetes.informers.configmaps.list-priority=0", "test.fail-once=forget/cm-0")
			.run((context) -> {
				InformerFeedTest.awaitWatching(context);
				InformerFeed<?> feed = context.getBean(KubernetesInformers.class).feed("configmaps");
				for (int i = 0; i < objects; i++) {
					client.configMaps()
						.inNamespace("forget")
						.resource(new ConfigMapBuilder().withNewMetadata().withName("cm-" + i).endMetadata().build())
						.create();
				}
				await().atMost(Duration.ofSeconds(60)).until(() -> processed.size() >= objects);
				for (int i = 0; i < objects; i++) {
					client.configMaps().inNamespace("forget").withName("cm-" + i).delete();
				}
				await().atMost(Duration.ofSeconds(60))
					.alias("every deletion processed, the first after a failed attempt")
					.until(() -> deletedSeen.size() == objects);
				await().atMost(Duration.ofSeconds(10))
					.alias("no deleted state kept once its key was processed")
					.until(() -> feed.deletedKept() == 0);
				System.out.println("deleted states: " + objects + " deletions processed, " + feed.deletedKept()
						+ " states kept (before: every one, up to 10,000)");
			});
	}

	private static long count(ObjectKey key) {
		return processed.stream().filter(key::equals).count();
	}

	@Configuration(proxyBeanMethods = false)
	static class Workers {

		@Bean
		Worker informerRulesWorker(
				@org.springframework.beans.factory.annotation.Value("${test.work-millis:0}") long workMillis,
				@org.springframework.beans.factory.annotation.Value("${test.fail-once:}") String failOnce,
				ObjectProvider<KubernetesLister<?>> listers) {
			return new Worker(workMillis, listers.orderedStream().findFirst().orElseThrow(), failOnce);
		}

	}

	static final class Worker {

		private final long workMillis;

		private final KubernetesLister<?> lister;

		private final String failOnce;

		private final Set<ObjectKey> failed = ConcurrentHashMap.newKeySet();

		Worker(long workMillis, KubernetesLister<?> lister, String failOnce) {
			this.workMillis = workMillis;
			this.lister = lister;
			this.failOnce = failOnce;
		}

		@QueueWorker("configmaps")
		void configMap(ObjectKey key) throws InterruptedException {
			processed.add(key);
			if (this.lister.get(key).isEmpty()) {
				if (this.lister.deleted(key).isEmpty()) {
					throw new IllegalStateException("neither cached nor deleted: " + key);
				}
				if (key.toString().equals(this.failOnce) && this.failed.add(key)) {
					throw new IllegalStateException("fails once, its deleted state must stay for the retry");
				}
				deletedSeen.add(key);
			}
			Thread.sleep(this.workMillis);
		}

		@QueueWorker("namespaces")
		void namespace(ObjectKey key) {
			processed.add(key);
		}

	}

}
