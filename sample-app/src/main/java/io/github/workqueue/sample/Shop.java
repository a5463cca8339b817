package io.github.workqueue.sample;

import io.fabric8.kubernetes.api.model.Namespaced;
import io.fabric8.kubernetes.client.CustomResource;
import io.fabric8.kubernetes.model.annotation.Group;
import io.fabric8.kubernetes.model.annotation.Version;

/**
 * The Kubernetes profile's custom resource, {@code shops.sample.workqueue.io}: a shop
 * whose owner asks for a number of counters, and whose controller reports how many it
 * opened ({@link ShopReconciler}). Its CRD is
 * {@code sample-app/kubernetes/shop-crd.yaml}.
 */
@Group("sample.workqueue.io")
@Version("v1")
public class Shop extends CustomResource<Shop.Spec, Shop.Status> implements Namespaced {

	private static final long serialVersionUID = 1L;

	/** What the shop's owner asks for. */
	public static class Spec {

		private int counters;

		public int getCounters() {
			return this.counters;
		}

		public void setCounters(int counters) {
			this.counters = counters;
		}

	}

	/** What the controller reports. */
	public static class Status {

		private int openCounters;

		private String phase;

		public int getOpenCounters() {
			return this.openCounters;
		}

		public void setOpenCounters(int openCounters) {
			this.openCounters = openCounters;
		}

		public String getPhase() {
			return this.phase;
		}

		public void setPhase(String phase) {
			this.phase = phase;
		}

	}

}
