package io.github.workqueue.kubernetes;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;

import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.ConfigMapBuilder;
import io.fabric8.kubernetes.api.model.Secret;
import io.fabric8.kubernetes.api.model.SecretBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import org.junit.jupiter.api.extension.ExtendWith;
import io.fabric8.kubernetes.client.server.mock.KubernetesMockServer;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

import io.github.workqueue.autoconfigure.WorkQueueAutoConfiguration;
import io.github.workqueue.kubernetes.autoconfigure.WorkQueueKubernetesAutoConfiguration;
import io.github.workqueue.spring.QueueWorker;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * A {@link KubernetesController} bean beside the YAML: its filter keeps some objects'
 * events out, its indexer serves the lister's {@code byIndex}, and its watch of Secrets
 * adds the key of the ConfigMap that a Secret's label names. A bean that does not match
 * its informer stops startup naming the property.
 */
@ExtendWith(MockApiServer.class)
class KubernetesControllerTest {

	static KubernetesMockServer server;

	static KubernetesClient client;

	static final List<String> seen = new CopyOnWriteArrayList<>();

	private final ApplicationContextRunner runner = new ApplicationContextRunner()
		.withConfiguration(
				AutoConfigurations.of(WorkQueueAutoConfiguration.class, WorkQueueKubernetesAutoConfiguration.class))
		.withBean(KubernetesClient.class, () -> server.createClient())
		.withPropertyValues(
				"workqueue.kubernetes.informers.configmaps.model-class=io.fabric8.kubernetes.api.model.ConfigMap",
				"workqueue.kubernetes.informers.configmaps.namespaces=ctl");

	@BeforeEach
	void clear() {
		seen.clear();
	}

	@Test
	void aFilterAnIndexerAndAWatchOfAnotherResourceShouldShapeWhatTheQueueGets() {
		this.runner.withUserConfiguration(Controller.class).run((context) -> {
			InformerFeedTest.awaitWatching(context);
			create("web", Map.of("app", "shop"));
			create("ignored", Map.of("app", "shop", "paused", "true"));
			create("after", Map.of("app", "blog"));
			await().atMost(Duration.ofSeconds(10)).until(() -> seen.contains("ctl/after by-app 1"));
			assertThat(seen).anyMatch((entry) -> entry.startsWith("ctl/web "))
				.noneMatch((entry) -> entry.startsWith("ctl/ignored"));

			client.secrets()
				.inNamespace("ctl")
				.resource(new SecretBuilder().withNewMetadata()
					.withName("web-credentials")
					.addToLabels("config", "web")
					.endMetadata()
					.build())
				.create();
			await().atMost(Duration.ofSeconds(10))
				.alias("the Secret's change adds the key its label names")
				.until(() -> seen.stream().filter((entry) -> entry.startsWith("ctl/web ")).count() == 2);
			assertThat(seen.stream().filter((entry) -> entry.startsWith("ctl/web ")).toList().get(1))
				.as("the index finds both ConfigMaps of the app, the filtered one included")
				.isEqualTo("ctl/web by-app 2");
		});
	}

	@Test
	void aControllerOfAQueueWithoutAnInformerShouldFailStartup() {
		this.runner
			.withBean("stray", KubernetesController.class,
					() -> KubernetesController.forQueue("secrets", Secret.class).build())
			.run((context) -> assertThat(context).getFailure()
				.rootCause()
				.hasMessageContaining("workqueue.kubernetes.informers.secrets does not declare"));
		this.runner
			.withBean("mismatch", KubernetesController.class,
					() -> KubernetesController.forQueue("configmaps", Secret.class).build())
			.run((context) -> assertThat(context).getFailure()
				.rootCause()
				.hasMessageContaining("'workqueue.kubernetes.informers.configmaps.model-class'")
				.hasMessageContaining("io.fabric8.kubernetes.api.model.Secret"));
	}

	private static void create(String name, Map<String, String> labels) {
		client.configMaps()
			.inNamespace("ctl")
			.resource(new ConfigMapBuilder().withNewMetadata().withName(name).withLabels(labels).endMetadata().build())
			.create();
	}

	@Configuration(proxyBeanMethods = false)
	static class Controller {

		@Bean
		KubernetesController<ConfigMap> configmapsController() {
			return KubernetesController.forQueue("configmaps", ConfigMap.class)
				.filter((cm) -> !"true".equals(cm.getMetadata().getLabels().get("paused")))
				.index("by-app", (cm) -> List.of(cm.getMetadata().getLabels().getOrDefault("app", "")))
				.watches(Secret.class, (secret) -> {
					String config = secret.getMetadata().getLabels().get("config");
					return (config != null) ? List.of(new ObjectKey(secret.getMetadata().getNamespace(), config))
							: List.of();
				})
				.build();
		}

		@Bean
		Worker controllerTestWorker(KubernetesLister<ConfigMap> configmapsLister) {
			return new Worker(configmapsLister);
		}

	}

	static final class Worker {

		private final KubernetesLister<ConfigMap> lister;

		Worker(KubernetesLister<ConfigMap> lister) {
			this.lister = lister;
		}

		@QueueWorker("configmaps")
		void reconcile(ObjectKey key) {
			String app = this.lister.get(key).map((cm) -> cm.getMetadata().getLabels().get("app")).orElse("");
			seen.add(key + " by-app " + this.lister.byIndex("by-app", app).size());
		}

	}

}
