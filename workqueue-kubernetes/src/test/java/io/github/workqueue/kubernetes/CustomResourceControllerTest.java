package io.github.workqueue.kubernetes;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

import io.fabric8.kubernetes.api.model.apiextensions.v1.CustomResourceDefinition;
import io.fabric8.kubernetes.api.model.events.v1.Event;
import io.fabric8.kubernetes.client.dsl.base.CustomResourceDefinitionContext;
import io.fabric8.kubernetes.client.KubernetesClient;
import org.junit.jupiter.api.extension.ExtendWith;
import io.fabric8.kubernetes.client.server.mock.KubernetesMockServer;
import org.junit.jupiter.api.BeforeAll;
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
 * A controller of a custom resource (its CRD created on fabric8's mock API server, CRUD
 * mode), as the README's reader would write one: the finalizer added on first sight, the
 * status written through the status subresource without undoing a spec written meanwhile,
 * an Event per reconcile, and on deletion the cleanup before the finalizer lets the
 * object go.
 */
@ExtendWith(MockApiServer.class)
class CustomResourceControllerTest {

	static final String FINALIZER = "shops.example.io/cleanup";

	static KubernetesMockServer server;

	static KubernetesClient client;

	static final List<String> cleanedUp = new CopyOnWriteArrayList<>();

	@BeforeAll
	static void createTheCrd() {
		CustomResourceDefinition crd = CustomResourceDefinitionContext.v1CRDFromCustomResourceType(Shop.class).build();
		client.apiextensions().v1().customResourceDefinitions().resource(crd).create();
	}

	@Test
	void aShopShouldGetItsFinalizerStatusAndEventsAndBeCleanedUpWhenDeleted() {
		new ApplicationContextRunner()
			.withConfiguration(
					AutoConfigurations.of(WorkQueueAutoConfiguration.class, WorkQueueKubernetesAutoConfiguration.class))
			.withBean(KubernetesClient.class, () -> server.createClient())
			.withUserConfiguration(ShopController.class)
			.withPropertyValues("workqueue.kubernetes.informers.shops.model-class=" + Shop.class.getName(),
					"workqueue.kubernetes.informers.shops.namespaces=mall")
			.run((context) -> {
				InformerFeedTest.awaitWatching(context);
				Shop shop = new Shop();
				shop.getMetadata().setName("corner");
				shop.setSpec(new Shop.Spec());
				shop.getSpec().setSize(3);
				client.resources(Shop.class).inNamespace("mall").resource(shop).create();

				await().atMost(Duration.ofSeconds(15)).until(() -> {
					Shop current = client.resources(Shop.class).inNamespace("mall").withName("corner").get();
					return current.hasFinalizer(FINALIZER) && current.getStatus() != null
							&& "Ready".equals(current.getStatus().getPhase());
				});
				// A spec writer's change: the controller's next status patch must not
				// undo it.
				client.resources(Shop.class).inNamespace("mall").withName("corner").edit((latest) -> {
					latest.getSpec().setSize(5);
					return latest;
				});
				await().atMost(Duration.ofSeconds(15))
					.until(() -> client.resources(Shop.class)
						.inNamespace("mall")
						.withName("corner")
						.get()
						.getStatus()
						.getObservedSize() == 5);
				assertThat(
						client.resources(Shop.class).inNamespace("mall").withName("corner").get().getSpec().getSize())
					.isEqualTo(5);
				// A stale copy's status patch: no conflict, and the newer spec stays.
				Shop stale = client.getKubernetesSerialization().clone(shop);
				stale.getMetadata().setNamespace("mall");
				stale.getMetadata().setResourceVersion("1");
				stale.setStatus(new Shop.Status());
				stale.getStatus().setPhase("Stale");
				Shop patched = StatusPatches.patch(client, stale);
				assertThat(patched.getSpec().getSize()).isEqualTo(5);
				assertThat(patched.getStatus().getPhase()).isEqualTo("Stale");
				assertThat(stale.getMetadata().getResourceVersion()).as("the caller's object is not changed")
					.isEqualTo("1");
				List<Event> events = client.events().v1().events().inNamespace("mall").list().getItems();
				assertThat(events).anySatisfy((event) -> {
					assertThat(event.getReason()).isEqualTo("Reconciled");
					assertThat(event.getRegarding().getName()).isEqualTo("corner");
					assertThat(event.getReportingController()).isEqualTo("example.io/shop-controller");
				});

				client.resources(Shop.class).inNamespace("mall").withName("corner").delete();
				await().atMost(Duration.ofSeconds(15))
					.alias("the cleanup ran, then the finalizer let the shop go")
					.until(() -> cleanedUp.contains("mall/corner")
							&& client.resources(Shop.class).inNamespace("mall").withName("corner").get() == null);
			});
	}

	@Configuration(proxyBeanMethods = false)
	static class ShopController {

		@Bean
		Reconciler shopReconciler(KubernetesLister<Shop> shopsLister, KubernetesClient client) {
			return new Reconciler(shopsLister, client);
		}

	}

	static final class Reconciler {

		private final KubernetesLister<Shop> shops;

		private final KubernetesClient client;

		private final ControllerEvents events;

		Reconciler(KubernetesLister<Shop> shops, KubernetesClient client) {
			this.shops = shops;
			this.client = client;
			this.events = new ControllerEvents(client, "example.io/shop-controller", "replica-1");
		}

		@QueueWorker("shops")
		void reconcile(ObjectKey key) {
			Shop shop = this.shops.get(key).orElse(null);
			if (shop == null || Finalizers.finalizeIfDeleted(this.client, shop, FINALIZER,
					(deleted) -> cleanedUp.add(key.toString()))) {
				return;
			}
			shop = Finalizers.ensure(this.client, shop, FINALIZER);
			Shop.Status status = new Shop.Status();
			status.setPhase("Ready");
			status.setObservedSize(shop.getSpec().getSize());
			shop.setStatus(status);
			StatusPatches.patch(this.client, shop);
			this.events.normal(shop, "Reconciled", "Reconcile", "size " + shop.getSpec().getSize() + " is ready");
		}

	}

}
