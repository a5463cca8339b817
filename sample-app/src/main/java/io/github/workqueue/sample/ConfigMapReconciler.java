package io.github.workqueue.sample;

import java.util.TreeMap;

import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.client.KubernetesClient;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import org.springframework.context.annotation.Profile;
import org.springframework.stereotype.Component;

import io.github.workqueue.kubernetes.KubernetesLister;
import io.github.workqueue.kubernetes.ObjectKey;
import io.github.workqueue.spring.QueueWorker;

/**
 * The Kubernetes profile's controller: for each labelled ConfigMap, writes how many keys
 * its data has and the resource version it saw into the annotation
 * {@code workqueue.example/status}. It reads the ConfigMap from the informer's cache and
 * writes only when the annotation would change, so its own update (which the informer
 * delivers too) ends the loop.
 */
@Component
@Profile("kubernetes")
class ConfigMapReconciler {

	static final String STATUS = "workqueue.example/status";

	private static final Logger logger = LoggerFactory.getLogger(ConfigMapReconciler.class);

	private final KubernetesLister<ConfigMap> configmapsLister;

	private final KubernetesClient client;

	ConfigMapReconciler(KubernetesLister<ConfigMap> configmapsLister, KubernetesClient client) {
		this.configmapsLister = configmapsLister;
		this.client = client;
	}

	@QueueWorker("configmaps")
	void reconcile(ObjectKey key) {
		ConfigMap configMap = this.configmapsLister.get(key).orElse(null);
		if (configMap == null) {
			logger.info("ConfigMap {} is gone; nothing to clean up", key);
			return;
		}
		int entries = (configMap.getData() != null) ? configMap.getData().size() : 0;
		String status = "reconciled " + entries + " key(s): "
				+ ((configMap.getData() != null) ? new TreeMap<>(configMap.getData()).keySet() : "[]");
		if (status.equals(configMap.getMetadata().getAnnotations().get(STATUS))) {
			return;
		}
		this.client.configMaps().inNamespace(key.namespace()).withName(key.name()).edit((latest) -> {
			latest.getMetadata().getAnnotations().put(STATUS, status);
			return latest;
		});
		logger.info("Reconciled ConfigMap {}: {}", key, status);
	}

}
