package io.github.workqueue.kubernetes;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;

import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.ConfigMapBuilder;
import io.fabric8.kubernetes.api.model.SecretBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import org.junit.jupiter.api.extension.ExtendWith;
import io.fabric8.kubernetes.client.server.mock.KubernetesMockServer;
import org.junit.jupiter.api.Test;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

import io.github.workqueue.autoconfigure.WorkQueueAutoConfiguration;
import io.github.workqueue.autoconfigure.WorkQueueRegistry;
import io.github.workqueue.core.RateLimitingQueue;
import io.github.workqueue.kubernetes.WorkQueueKubernetesProperties.EventType;
import io.github.workqueue.kubernetes.autoconfigure.WorkQueueKubernetesAutoConfiguration;
import io.github.workqueue.kubernetes.internal.KubernetesInformers;
import io.github.workqueue.spring.QueueWorker;
import io.github.workqueue.spring.QueueWorkerRegistry;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * An informer feeds its queue as client-go's handlers do, against fabric8's mock API
 * server in CRUD mode (lists and watches included): a create, an update and a delete each
 * lead to a processing of the key, with the worker reading the object from the lister;
 * bursts of updates collapse while the key is queued; a resync delivers every key again;
 * a change of an owned object adds its controlling owner's key.
 */
@ExtendWith(MockApiServer.class)
class InformerFeedTest {

	static KubernetesMockServer server;

	static KubernetesClient client;

	private final ApplicationContextRunner runner = new ApplicationContextRunner()
		.withConfiguration(
				AutoConfigurations.of(WorkQueueAutoConfiguration.class, WorkQueueKubernetesAutoConfiguration.class))
		.withBean(KubernetesClient.class, () -> server.createClient())
		.withUserConfiguration(Reconciler.class)
		.withPropertyValues("workqueue.queues.configmaps.workers=2",
				"workqueue.kubernetes.informers.configmaps.model-class=io.fabric8.kubernetes.api.model.ConfigMap",
				"workqueue.kubernetes.informers.configmaps.namespaces=team-a",
				"workqueue.kubernetes.informers.configmaps.owns[0].api-version=v1",
				"workqueue.kubernetes.informers.configmaps.owns[0].kind=Secret");

	@Test
	void createUpdateAndDeleteShouldEachBeProcessedReadingTheLister() {
		this.runner.run((context) -> {
			awaitWatching(context);
			Reconciler reconciler = context.getBean(Reconciler.class);
			ObjectKey web = new ObjectKey("team-a", "web");
			client.configMaps().inNamespace("team-a").resource(configMap("web", "1")).create();
			await().atMost(Duration.ofSeconds(10)).until(() -> reconciler.seen(web).contains("1"));

			client.configMaps().inNamespace("team-a").withName("web").edit((cm) -> {
				cm.getData().put("replicas", "2");
				return cm;
			});
			await().atMost(Duration.ofSeconds(10)).until(() -> reconciler.seen(web).contains("2"));

			client.configMaps().inNamespace("team-a").withName("web").delete();
			await().atMost(Duration.ofSeconds(10)).until(() -> reconciler.seen(web).contains("deleted with 2"));
			@SuppressWarnings("unchecked")
			KubernetesLister<ConfigMap> lister = context.getBean("configmapsLister", KubernetesLister.class);
			assertThat(lister.get(web)).isEmpty();
			// The worker read the last state ("deleted with 2"); once processed, it is
			// let go.
			await().atMost(Duration.ofSeconds(10)).until(() -> lister.deleted(web).isEmpty());
			assertThat(lister.hasSynced()).isTrue();
		});
	}

	@Test
	void aBurstOfUpdatesShouldCollapseIntoTheOneQueuedKey() {
		this.runner.run((context) -> {
			awaitWatching(context);
			Reconciler reconciler = context.getBean(Reconciler.class);
			ObjectKey api = new ObjectKey("team-a", "api");
			client.configMaps().inNamespace("team-a").resource(configMap("api", "0")).create();
			await().atMost(Duration.ofSeconds(10)).until(() -> reconciler.seen(api).contains("0"));
			context.getBean(QueueWorkerRegistry.class).getContainer("configmaps").pause();
			var feed = context.getBean(KubernetesInformers.class).feed("configmaps");
			long updatesBefore = feed.events(EventType.UPDATE);
			for (int i = 1; i <= 20; i++) {
				String replicas = Integer.toString(i);
				client.configMaps().inNamespace("team-a").withName("api").edit((cm) -> {
					cm.getData().put("replicas", replicas);
					return cm;
				});
			}
			await().atMost(Duration.ofSeconds(10)).until(() -> feed.events(EventType.UPDATE) - updatesBefore >= 20);
			RateLimitingQueue<Object> queue = context.getBean(WorkQueueRegistry.class).getOrCreateQueue("configmaps");
			assertThat(queue.len()).as("20 updates of one key, queued once").isEqualTo(1);
			int before = reconciler.count(api);
			context.getBean(QueueWorkerRegistry.class).getContainer("configmaps").resume();
			await().atMost(Duration.ofSeconds(10)).until(() -> reconciler.seen(api).contains("20"));
			Thread.sleep(300);
			assertThat(reconciler.count(api) - before).as("processed once more, reading the latest state").isEqualTo(1);
		});
	}

	@Test
	void aResyncShouldDeliverEveryKeyAgain() {
		this.runner.withPropertyValues("workqueue.kubernetes.informers.configmaps.resync=1s").run((context) -> {
			awaitWatching(context);
			Reconciler reconciler = context.getBean(Reconciler.class);
			for (String name : List.of("one", "two", "three")) {
				client.configMaps().inNamespace("team-a").resource(configMap(name, "1")).create();
			}
			await().atMost(Duration.ofSeconds(15))
				.until(() -> List.of("one", "two", "three")
					.stream()
					.allMatch((name) -> reconciler.count(new ObjectKey("team-a", name)) >= 3));
		});
	}

	@Test
	void aChangeOfAnOwnedObjectShouldAddItsControllingOwnersKey() {
		this.runner.run((context) -> {
			awaitWatching(context);
			Reconciler reconciler = context.getBean(Reconciler.class);
			ObjectKey db = new ObjectKey("team-a", "db");
			ConfigMap owner = client.configMaps().inNamespace("team-a").resource(configMap("db", "1")).create();
			await().atMost(Duration.ofSeconds(10)).until(() -> reconciler.count(db) == 1);
			client.secrets()
				.inNamespace("team-a")
				.resource(new SecretBuilder().withNewMetadata()
					.withName("db-password")
					.addNewOwnerReference()
					.withApiVersion("v1")
					.withKind("ConfigMap")
					.withName("db")
					.withUid(owner.getMetadata().getUid())
					.withController(true)
					.endOwnerReference()
					.endMetadata()
					.build())
				.create();
			await().atMost(Duration.ofSeconds(10)).until(() -> reconciler.count(db) == 2);
			client.secrets()
				.inNamespace("team-a")
				.resource(new SecretBuilder().withNewMetadata().withName("unowned").endMetadata().build())
				.create();
			Thread.sleep(500);
			assertThat(reconciler.count(db)).as("a secret without an owner adds nothing").isEqualTo(2);
		});
	}

	@Test
	void anObjectOutsideTheWatchedNamespacesShouldAddNothing() {
		this.runner.run((context) -> {
			awaitWatching(context);
			Reconciler reconciler = context.getBean(Reconciler.class);
			client.configMaps().inNamespace("team-b").resource(configMap("elsewhere", "1")).create();
			client.configMaps().inNamespace("team-a").resource(configMap("here", "1")).create();
			await().atMost(Duration.ofSeconds(10)).until(() -> reconciler.count(new ObjectKey("team-a", "here")) == 1);
			assertThat(reconciler.count(new ObjectKey("team-b", "elsewhere"))).isZero();
		});
	}

	/**
	 * Waits until the informers listed and watch: the mock API server does not replay the
	 * events between a list and the watch that follows it, as a real one does from the
	 * list's resource version.
	 */
	static void awaitWatching(org.springframework.context.ApplicationContext context) {
		KubernetesInformers informers = context.getBean(KubernetesInformers.class);
		await().atMost(Duration.ofSeconds(20))
			.until(() -> informers.feeds().stream().allMatch((feed) -> feed.hasSynced() && feed.isWatching()));
	}

	private static ConfigMap configMap(String name, String replicas) {
		return new ConfigMapBuilder().withNewMetadata()
			.withName(name)
			.withNamespace("team-a")
			.endMetadata()
			.withData(new java.util.HashMap<>(Map.of("replicas", replicas)))
			.build();
	}

	/** Records, per key, what the lister showed at each processing. */
	@Configuration(proxyBeanMethods = false)
	static class Reconciler {

		private final Map<ObjectKey, List<String>> seen = new ConcurrentHashMap<>();

		private final Map<ObjectKey, AtomicInteger> counts = new ConcurrentHashMap<>();

		private KubernetesLister<ConfigMap> lister;

		@Bean
		ReconcilerWorker reconcilerWorker(KubernetesLister<ConfigMap> configmapsLister) {
			this.lister = configmapsLister;
			return new ReconcilerWorker(this);
		}

		void reconcile(ObjectKey key) {
			String state = this.lister.get(key)
				.map((cm) -> cm.getData().get("replicas"))
				.orElseGet(() -> "deleted with "
						+ this.lister.deleted(key).map((cm) -> cm.getData().get("replicas")).orElse("?"));
			this.seen.computeIfAbsent(key, (k) -> new CopyOnWriteArrayList<>()).add(state);
			this.counts.computeIfAbsent(key, (k) -> new AtomicInteger()).incrementAndGet();
		}

		List<String> seen(ObjectKey key) {
			return this.seen.getOrDefault(key, List.of());
		}

		int count(ObjectKey key) {
			AtomicInteger count = this.counts.get(key);
			return (count != null) ? count.get() : 0;
		}

	}

	static class ReconcilerWorker {

		private final Reconciler reconciler;

		ReconcilerWorker(Reconciler reconciler) {
			this.reconciler = reconciler;
		}

		@QueueWorker("configmaps")
		void reconcile(ObjectKey key) {
			this.reconciler.reconcile(key);
		}

	}

}
