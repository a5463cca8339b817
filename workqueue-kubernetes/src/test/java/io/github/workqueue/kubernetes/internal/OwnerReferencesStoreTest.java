package io.github.workqueue.kubernetes.internal;

import java.util.Map;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * An owned informer's store keeps of each object what mapping it to its owner's key
 * needs, under fabric8's cache key, and nothing of its data.
 */
class OwnerReferencesStoreTest {

	@Test
	void anObjectShouldBeKeptWithItsIdentityAndOwnerReferencesOnly() {
		GenericKubernetesResource secret = new GenericKubernetesResource();
		secret.setApiVersion("v1");
		secret.setKind("Secret");
		secret.setMetadata(new ObjectMetaBuilder().withName("db-password")
			.withNamespace("team-a")
			.withUid("uid-1")
			.withResourceVersion("42")
			.addToLabels("app", "db")
			.addToAnnotations("note", "x".repeat(1000))
			.addNewOwnerReference()
			.withApiVersion("v1")
			.withKind("ConfigMap")
			.withName("db")
			.withUid("uid-0")
			.withController(true)
			.endOwnerReference()
			.build());
		secret.setAdditionalProperty("data", Map.of("password", "c2VjcmV0"));
		OwnerReferencesStore store = new OwnerReferencesStore();
		String key = store.getKey(secret);
		store.put(key, secret);

		GenericKubernetesResource kept = store.get(key);
		assertThat(key).isEqualTo("team-a/db-password");
		assertThat(kept.getMetadata().getName()).isEqualTo("db-password");
		assertThat(kept.getMetadata().getNamespace()).isEqualTo("team-a");
		assertThat(kept.getMetadata().getResourceVersion()).isEqualTo("42");
		assertThat(kept.getMetadata().getOwnerReferences()).isEqualTo(secret.getMetadata().getOwnerReferences());
		assertThat(kept.getMetadata().getLabels()).isNullOrEmpty();
		assertThat(kept.getMetadata().getAnnotations()).isNullOrEmpty();
		assertThat(kept.getAdditionalProperties()).doesNotContainKey("data");
		assertThat(store.size()).isEqualTo(1);
		assertThat(store.remove(key)).isSameAs(kept);
		assertThat(store.size()).isZero();
	}

}
