package io.github.workqueue.kubernetes;

import io.fabric8.kubernetes.api.model.Namespaced;
import io.fabric8.kubernetes.client.CustomResource;
import io.fabric8.kubernetes.model.annotation.Group;
import io.fabric8.kubernetes.model.annotation.Version;

/**
 * A custom resource of the tests: a shop with a size, whose controller reports a phase.
 */
@Group("example.io")
@Version("v1")
public class Shop extends CustomResource<Shop.Spec, Shop.Status> implements Namespaced {

	private static final long serialVersionUID = 1L;

	/** What the shop's owner wants. */
	public static class Spec {

		private int size;

		public int getSize() {
			return this.size;
		}

		public void setSize(int size) {
			this.size = size;
		}

	}

	/** What the controller reports. */
	public static class Status {

		private String phase;

		private int observedSize;

		public String getPhase() {
			return this.phase;
		}

		public void setPhase(String phase) {
			this.phase = phase;
		}

		public int getObservedSize() {
			return this.observedSize;
		}

		public void setObservedSize(int observedSize) {
			this.observedSize = observedSize;
		}

	}

}
