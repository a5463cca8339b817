package io.github.workqueue.sample;

import java.io.InputStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;

import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.ConfigMapBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.server.mock.EnableKubernetesMockClient;
import io.fabric8.kubernetes.client.server.mock.KubernetesMockServer;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.boot.web.server.context.WebServerApplicationContext;
import org.springframework.context.ConfigurableApplicationContext;

import io.github.workqueue.kubernetes.internal.KubernetesInformers;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * The sample's Kubernetes profile against fabric8's mock API server: a labelled ConfigMap
 * is reconciled into its status annotation, again when its data changes; one without the
 * label is left alone; a Shop (its CRD applied from {@code kubernetes/shop-crd.yaml})
 * gets its finalizer, its status and an Event, and goes once its counters were closed.
 */
@EnableKubernetesMockClient(crud = true)
class KubernetesProfileTest {

	static KubernetesMockServer server;

	static KubernetesClient client;

	/** The Shop CRD of the sample, as a user applies it with kubectl. */
	@BeforeAll
	static void applyTheShopCrd() throws Exception {
		try (InputStream crd = Files.newInputStream(Path.of("kubernetes/shop-crd.yaml"))) {
			client.apiextensions().v1().customResourceDefinitions().load(crd).create();
		}
	}

	@Test
	void labelledConfigMapsShouldBeReconciledIntoTheirStatusAnnotation() throws Exception {
		create("web", Map.of("workqueue.example/reconcile", "true"), Map.of("a", "1", "b", "2"));
		create("other", Map.of(), Map.of("a", "1"));
		try (ConfigurableApplicationContext sample = new SpringApplicationBuilder(SampleApplication.class)
			.initializers(
					(context) -> context.getBeanFactory().registerSingleton("kubernetesClient", server.createClient()))
			.run("--spring.profiles.active=kubernetes", "--server.port=0",
					"--workqueue.kubernetes.leader-election.retry-period=200ms")) {
			KubernetesInformers informers = sample.getBean(KubernetesInformers.class);
			// The mock API server does not replay the events between the informer's list
			// and its watch, as a real one does: the change below waits for the watch.
			await().atMost(Duration.ofSeconds(20))
				.until(() -> informers.feed("configmaps").hasSynced() && informers.feed("configmaps").isWatching());
			await().atMost(Duration.ofSeconds(20)).until(() -> "reconciled 2 key(s): [a, b]".equals(status("web")));
			client.configMaps().inNamespace("default").withName("web").edit((cm) -> {
				cm.getData().put("c", "3");
				return cm;
			});
			await().atMost(Duration.ofSeconds(20)).until(() -> "reconciled 3 key(s): [a, b, c]".equals(status("web")));
			assertThat(status("other")).isNull();
			int port = ((WebServerApplicationContext) sample).getWebServer().getPort();
			HttpResponse<String> queue = HttpClient.newHttpClient()
				.send(HttpRequest.newBuilder(URI.create("http://localhost:" + port + "/actuator/workqueues/configmaps"))
					.build(), HttpResponse.BodyHandlers.ofString());
			assertThat(queue.body()).as("the informer in the endpoint")
				.contains("\"informer\":{\"resource\":\"v1 ConfigMap\",\"synced\":true", "\"leading\":true");

			Shop shop = new Shop();
			shop.getMetadata().setName("corner");
			shop.setSpec(new Shop.Spec());
			shop.getSpec().setCounters(2);
			client.resources(Shop.class).inNamespace("default").resource(shop).create();
			await().atMost(Duration.ofSeconds(20)).until(() -> {
				Shop current = client.resources(Shop.class).inNamespace("default").withName("corner").get();
				return current.hasFinalizer(ShopReconciler.FINALIZER) && current.getStatus() != null
						&& current.getStatus().getOpenCounters() == 2;
			});
			assertThat(client.events().v1().events().inNamespace("default").list().getItems())
				.anySatisfy((event) -> assertThat(event.getReason()).isEqualTo("CountersOpened"));
			client.resources(Shop.class).inNamespace("default").withName("corner").delete();
			await().atMost(Duration.ofSeconds(20))
				.alias("the counters closed, the finalizer lets the shop go")
				.until(() -> client.resources(Shop.class).inNamespace("default").withName("corner").get() == null);
		}
	}

	private static void create(String name, Map<String, String> labels, Map<String, String> data) {
		client.configMaps()
			.inNamespace("default")
			.resource(new ConfigMapBuilder().withNewMetadata()
				.withName(name)
				.withLabels(labels)
				.endMetadata()
				.withData(data)
				.build())
			.create();
	}

	private static String status(String name) {
		ConfigMap configMap = client.configMaps().inNamespace("default").withName(name).get();
		return configMap.getMetadata().getAnnotations().get(ConfigMapReconciler.STATUS);
	}

}
