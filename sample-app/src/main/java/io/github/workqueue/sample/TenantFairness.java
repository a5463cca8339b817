package io.github.workqueue.sample;

import java.util.List;

import org.springframework.stereotype.Component;

import io.github.workqueue.core.FairnessKeyExtractor;

/**
 * Fairness by tenant for the deployments queue ({@code fairness: tenantFairness}): a key
 * {@code acme.web} belongs to tenant {@code acme}, a key without a dot to
 * {@code default}. A tenant with thousands of deployments to reconcile delays another
 * tenant's next one by at most one reconcile per busy tenant.
 */
@Component
public class TenantFairness implements FairnessKeyExtractor<String> {

	@Override
	public List<String> keysOf(String key) {
		int dot = key.indexOf('.');
		return List.of((dot > 0) ? key.substring(0, dot) : "default");
	}

}
