package io.github.workqueue.kubernetes;

import java.time.Duration;
import java.util.Map;

import io.fabric8.kubernetes.client.KubernetesClient;
import org.junit.jupiter.api.extension.ExtendWith;
import io.fabric8.kubernetes.client.server.mock.KubernetesMockServer;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import org.junit.jupiter.api.Test;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.health.contributor.Health;
import org.springframework.boot.health.contributor.HealthIndicator;
import org.springframework.boot.health.contributor.Status;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;

import io.github.workqueue.autoconfigure.WorkQueueAutoConfiguration;
import io.github.workqueue.autoconfigure.actuate.QueueDetailsContributor;
import io.github.workqueue.kubernetes.autoconfigure.WorkQueueKubernetesAutoConfiguration;
import io.github.workqueue.kubernetes.internal.KubernetesInformers;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * The module's auto-configuration: nothing without informers (no client, no connection);
 * a missing resource fails startup naming the property; the informers are in the health
 * and in Micrometer; a lister bean per queue.
 */
@ExtendWith(MockApiServer.class)
class KubernetesAutoConfigurationTest {

	static KubernetesMockServer server;

	static KubernetesClient client;

	private final ApplicationContextRunner runner = new ApplicationContextRunner().withConfiguration(
			AutoConfigurations.of(WorkQueueAutoConfiguration.class, WorkQueueKubernetesAutoConfiguration.class));

	@Test
	void withoutInformersNothingShouldBeConfigured() {
		this.runner.run((context) -> {
			assertThat(context).hasNotFailed();
			assertThat(context).doesNotHaveBean(KubernetesInformers.class);
			assertThat(context).doesNotHaveBean(KubernetesClient.class);
		});
	}

	@Test
	void anInformerWithoutItsKindShouldFailStartupNamingTheProperty() {
		this.runner.withBean(KubernetesClient.class, () -> server.createClient())
			.withPropertyValues("workqueue.kubernetes.informers.pods.api-version=v1")
			.run((context) -> assertThat(context).getFailure()
				.rootCause()
				.hasMessageContaining("workqueue.kubernetes.informers.pods.kind"));
	}

	@Test
	void theAutoConfigurationShouldBeDescribedForBootsEarlyFiltering() throws java.io.IOException {
		java.util.Properties metadata = new java.util.Properties();
		try (java.io.InputStream in = getClass().getClassLoader()
			.getResourceAsStream("META-INF/spring-autoconfigure-metadata.properties")) {
			assertThat(in).isNotNull();
			metadata.load(in);
		}
		assertThat(metadata.getProperty(WorkQueueKubernetesAutoConfiguration.class.getName() + ".ConditionalOnClass"))
			.isEqualTo("io.fabric8.kubernetes.client.KubernetesClient");
	}

	@Test
	void theHealthIndicatorShouldBeSwitchedOffLikeBootsOwn() {
		this.runner.withBean(KubernetesClient.class, () -> server.createClient())
			.withPropertyValues("workqueue.kubernetes.informers.configmaps.api-version=v1",
					"workqueue.kubernetes.informers.configmaps.kind=ConfigMap",
					"management.health.kubernetesinformers.enabled=false")
			.run((context) -> assertThat(context).doesNotHaveBean("kubernetesInformersHealthIndicator"));
	}

	@Test
	void aRetryBackoffThatIsNotPositiveShouldFailStartupNamingTheProperty() {
		this.runner.withBean(KubernetesClient.class, () -> server.createClient())
			.withPropertyValues("workqueue.kubernetes.informers.configmaps.api-version=v1",
					"workqueue.kubernetes.informers.configmaps.kind=ConfigMap",
					"workqueue.kubernetes.max-retry-backoff=0s")
			.run((context) -> assertThat(context).getFailure()
				.rootCause()
				.hasMessageContaining("'workqueue.kubernetes.max-retry-backoff'")
				.hasMessageContaining("must be positive"));
	}

	@Test
	void leaderElectionDurationsThatLeaveNoTimeToEndTheKeysShouldFailStartup() {
		this.runner.withBean(KubernetesClient.class, () -> server.createClient())
			.withPropertyValues("workqueue.kubernetes.informers.configmaps.api-version=v1",
					"workqueue.kubernetes.informers.configmaps.kind=ConfigMap",
					"workqueue.kubernetes.leader-election.enabled=true",
					"workqueue.kubernetes.leader-election.lease-duration=10s",
					"workqueue.kubernetes.leader-election.renew-deadline=9500ms")
			.run((context) -> assertThat(context).getFailure()
				.rootCause()
				.hasMessageContaining("'workqueue.kubernetes.leader-election.lease-duration'")
				.hasMessageContaining("must exceed renew-deadline (PT9.5S) plus max-clock-skew (PT1S)"));
		this.runner.withBean(KubernetesClient.class, () -> server.createClient())
			.withPropertyValues("workqueue.kubernetes.informers.configmaps.api-version=v1",
					"workqueue.kubernetes.informers.configmaps.kind=ConfigMap",
					"workqueue.kubernetes.leader-election.enabled=true",
					"workqueue.kubernetes.leader-election.retry-period=9s")
			.run((context) -> assertThat(context).getFailure()
				.rootCause()
				.hasMessageContaining("'workqueue.kubernetes.leader-election.renew-deadline'")
				.hasMessageContaining("1.2 times retry-period"));
	}

	@Test
	void theInformersShouldBeInTheHealthAndInMicrometerWithAListerBean() {
		this.runner.withBean(KubernetesClient.class, () -> server.createClient())
			.withBean(MeterRegistry.class, SimpleMeterRegistry::new)
			.withPropertyValues("workqueue.kubernetes.informers.configmaps.api-version=v1",
					"workqueue.kubernetes.informers.configmaps.kind=ConfigMap",
					"workqueue.queues.configmaps.item-type=io.github.workqueue.kubernetes.ObjectKey")
			.run((context) -> {
				assertThat(context).hasBean("configmapsLister");
				HealthIndicator health = context.getBean("kubernetesInformersHealthIndicator", HealthIndicator.class);
				await().atMost(Duration.ofSeconds(10)).until(() -> health.health().getStatus().equals(Status.UP));
				Health up = health.health();
				assertThat(up.getDetails()).containsEntry("leading", true);
				@SuppressWarnings("unchecked")
				Map<String, Object> configmaps = (Map<String, Object>) up.getDetails().get("configmaps");
				assertThat(configmaps).containsEntry("resource", "v1 ConfigMap").containsEntry("synced", true);
				assertThat(context.getBean(QueueDetailsContributor.class).details("configmaps"))
					.hasEntrySatisfying("informer", (informer) -> assertThat(informer).asString()
						.contains("resource=v1 ConfigMap", "synced=true", "leading=true"));
				assertThat(context.getBean(QueueDetailsContributor.class).details("other")).isEmpty();
				MeterRegistry meters = context.getBean(MeterRegistry.class);
				assertThat(meters.find("workqueue.kubernetes.events").tag("name", "configmaps").functionCounters())
					.hasSize(3);
				assertThat(meters.get("workqueue.kubernetes.synced").tag("name", "configmaps").gauge().value())
					.isEqualTo(1.0);
			});
	}

	@Test
	void objectKeysShouldReadAndWriteClientGosForm() {
		assertThat(ObjectKey.parse("default/web")).isEqualTo(new ObjectKey("default", "web"));
		assertThat(ObjectKey.parse("node-1")).isEqualTo(new ObjectKey(null, "node-1"));
		assertThat(new ObjectKey("default", "web")).hasToString("default/web");
		assertThat(new ObjectKey("", "node-1")).hasToString("node-1");
		assertThat(ObjectKey.parse(new ObjectKey("a", "b").toString())).isEqualTo(new ObjectKey("a", "b"));
	}

}
