package io.github.workqueue.kubernetes;

import java.time.Duration;

import io.fabric8.kubernetes.api.model.ConfigMapBuilder;
import io.fabric8.kubernetes.api.model.StatusBuilder;
import io.fabric8.kubernetes.api.model.WatchEvent;
import io.fabric8.kubernetes.client.KubernetesClient;
import org.junit.jupiter.api.extension.ExtendWith;
import io.fabric8.kubernetes.client.server.mock.KubernetesMockServer;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import org.junit.jupiter.api.Test;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.health.contributor.HealthIndicator;
import org.springframework.boot.health.contributor.Status;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;

import io.github.workqueue.autoconfigure.WorkQueueAutoConfiguration;
import io.github.workqueue.kubernetes.autoconfigure.WorkQueueKubernetesAutoConfiguration;
import io.github.workqueue.kubernetes.internal.InformerFeed;
import io.github.workqueue.kubernetes.internal.KubernetesInformers;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * An informer whose first list is refused (403) and whose first watch the API server ends
 * with an error status (500), on fabric8's mock API server (CRUD mode, the two answers
 * put in front of it): fabric8 alone would stop the informer for good after such a watch.
 * Here it lists again and watches, the health is DOWN with the cause until it listed and
 * UP after, the failures are counted by reason, and an object created after the recovery
 * reaches the lister and the worker. One test on a server of its own: the watch's path
 * names the list's resource version, 0 on an empty server.
 */
@ExtendWith(MockApiServer.class)
class InformerRecoveryTest {

	static KubernetesMockServer server;

	static KubernetesClient client;

	@Test
	void aRefusedListAndAWatchEndedWithAnErrorShouldBeRetriedCountedAndShownInTheHealth() {
		server.expect()
			.get()
			.withPath("/api/v1/namespaces/recovery/configmaps?resourceVersion=0")
			.andReturn(403,
					new StatusBuilder().withCode(403)
						.withMessage("configmaps is forbidden: User cannot list resource \"configmaps\"")
						.build())
			.once();
		server.expect()
			.withPath("/api/v1/namespaces/recovery/configmaps?allowWatchBookmarks=true&resourceVersion=0"
					+ "&timeoutSeconds=600&watch=true")
			.andUpgradeToWebSocket()
			.open()
			.waitFor(300)
			.andEmit(new WatchEvent(new StatusBuilder().withCode(500).withMessage("etcd is gone").build(), "ERROR"))
			.done()
			.once();
		Ledger.clear();
		informer("configmaps", "recovery").withBean(MeterRegistry.class, SimpleMeterRegistry::new)
			.withUserConfiguration(LedgerWorker.class)
			.withPropertyValues("test.reconcile.min-millis=1", "test.reconcile.max-millis=2")
			.run((context) -> {
				InformerFeed<?> feed = context.getBean(KubernetesInformers.class).feed("configmaps");
				HealthIndicator health = context.getBean("kubernetesInformersHealthIndicator", HealthIndicator.class);
				await().atMost(Duration.ofSeconds(10))
					.alias("the refused list, counted")
					.until(() -> feed.failures("forbidden") == 1);
				await().atMost(Duration.ofSeconds(20)).until(() -> feed.hasSynced() && feed.isWatching());
				await().atMost(Duration.ofSeconds(10)).until(() -> health.health(true).getStatus().equals(Status.UP));
				assertThat(feed.lastFailure()).startsWith("forbidden: ")
					.contains("grant the service account list and watch on v1 ConfigMap");
				// The watch ended with a 500 is opened again by fabric8's watch manager.
				await().atMost(Duration.ofSeconds(10)).until(() -> server.getRequestCount() > 0 && feed.isWatching());
				assertThat(context.getBean(MeterRegistry.class)
					.get("workqueue.kubernetes.watch.errors")
					.tag("reason", "forbidden")
					.functionCounter()
					.count()).isEqualTo(1);

				client.configMaps()
					.inNamespace("recovery")
					.resource(new ConfigMapBuilder().withNewMetadata().withName("after").endMetadata().build())
					.create();
				ObjectKey after = new ObjectKey("recovery", "after");
				await().atMost(Duration.ofSeconds(10)).until(() -> feed.get(after).isPresent());
				await().atMost(Duration.ofSeconds(10))
					.until(() -> Ledger.entries().stream().anyMatch((entry) -> entry.key().equals(after)));
			});
	}

	@Test
	void failOnStartShouldFailStartupWhenTheInformersDoNotListInTime() {
		server.expect()
			.get()
			.withPath("/api/v1/namespaces/never/configmaps?resourceVersion=0")
			.andReturn(403, new StatusBuilder().withCode(403).withMessage("configmaps is forbidden").build())
			.always();
		informer("never", "never")
			.withPropertyValues("workqueue.kubernetes.cache-sync-timeout=1s", "workqueue.kubernetes.fail-on-start=true")
			.run((context) -> assertThat(context).getFailure()
				.rootCause()
				.hasMessageContaining(
						"did not list their objects within workqueue.kubernetes.cache-sync-timeout (PT1S)")
				.hasMessageContaining("forbidden"));
	}

	@Test
	void aListThatIsRefusedShouldKeepTheHealthDownWithItsCause() {
		server.expect()
			.get()
			.withPath("/api/v1/namespaces/refused/configmaps?resourceVersion=0")
			.andReturn(403, new StatusBuilder().withCode(403).withMessage("configmaps is forbidden").build())
			.always();
		informer("refused", "refused").withPropertyValues("workqueue.kubernetes.cache-sync-timeout=1s")
			.run((context) -> {
				HealthIndicator health = context.getBean("kubernetesInformersHealthIndicator", HealthIndicator.class);
				await().atMost(Duration.ofSeconds(10))
					.until(() -> String.valueOf(health.health(true).getDetails().get("problems"))
						.contains("not listed within cache-sync-timeout"));
				assertThat(health.health(true).getStatus()).isEqualTo(Status.DOWN);
				assertThat(String.valueOf(health.health(true).getDetails().get("problems"))).contains("forbidden: ")
					.contains("grant the service account list and watch on v1 ConfigMap");
			});
	}

	/** An application whose queue is fed by an informer of the namespace's ConfigMaps. */
	private static ApplicationContextRunner informer(String queue, String namespace) {
		String informer = "workqueue.kubernetes.informers." + queue;
		return new ApplicationContextRunner()
			.withConfiguration(
					AutoConfigurations.of(WorkQueueAutoConfiguration.class, WorkQueueKubernetesAutoConfiguration.class))
			.withBean(KubernetesClient.class, () -> server.createClient())
			.withPropertyValues(informer + ".api-version=v1", informer + ".kind=ConfigMap",
					informer + ".namespaces=" + namespace);
	}

}
