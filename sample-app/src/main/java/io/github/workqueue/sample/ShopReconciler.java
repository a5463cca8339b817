package io.github.workqueue.sample;

import io.fabric8.kubernetes.client.KubernetesClient;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import org.springframework.context.annotation.Profile;
import org.springframework.stereotype.Component;

import io.github.workqueue.kubernetes.ControllerEvents;
import io.github.workqueue.kubernetes.Finalizers;
import io.github.workqueue.kubernetes.KubernetesLister;
import io.github.workqueue.kubernetes.ObjectKey;
import io.github.workqueue.kubernetes.StatusPatches;
import io.github.workqueue.spring.QueueWorker;

/**
 * The Kubernetes profile's custom-resource controller: each {@link Shop} gets a finalizer
 * on first sight, its status says how many counters are open (written through the status
 * subresource, so it never undoes its owner's spec), and each change is an Event; a shop
 * being deleted has its counters closed before the finalizer lets it go.
 */
@Component
@Profile("kubernetes")
class ShopReconciler {

	static final String FINALIZER = "sample.workqueue.io/close-counters";

	private static final Logger logger = LoggerFactory.getLogger(ShopReconciler.class);

	private final KubernetesLister<Shop> shopsLister;

	private final KubernetesClient client;

	private final ControllerEvents events;

	ShopReconciler(KubernetesLister<Shop> shopsLister, KubernetesClient client) {
		this.shopsLister = shopsLister;
		this.client = client;
		this.events = new ControllerEvents(client, "sample.workqueue.io/shop-controller",
				System.getenv().getOrDefault("HOSTNAME", "local"));
	}

	@QueueWorker("shops")
	void reconcile(ObjectKey key) {
		Shop shop = this.shopsLister.get(key).orElse(null);
		if (shop == null || Finalizers.finalizeIfDeleted(this.client, shop, FINALIZER, this::closeCounters)) {
			return;
		}
		shop = Finalizers.ensure(this.client, shop, FINALIZER);
		int wanted = (shop.getSpec() != null) ? shop.getSpec().getCounters() : 0;
		if (shop.getStatus() != null && shop.getStatus().getOpenCounters() == wanted) {
			return;
		}
		Shop.Status status = new Shop.Status();
		status.setOpenCounters(wanted);
		status.setPhase("Open");
		shop.setStatus(status);
		StatusPatches.patch(this.client, shop);
		this.events.normal(shop, "CountersOpened", "Reconcile", wanted + " counter(s) open");
		logger.info("Shop {}: {} counter(s) open", key, wanted);
	}

	private void closeCounters(Shop shop) {
		logger.info("Shop {}/{} is being deleted: its counters are closed", shop.getMetadata().getNamespace(),
				shop.getMetadata().getName());
	}

}
