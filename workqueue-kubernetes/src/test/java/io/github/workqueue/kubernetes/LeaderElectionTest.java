package io.github.workqueue.kubernetes;

import java.time.Duration;

import io.fabric8.kubernetes.api.model.ConfigMapBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import org.junit.jupiter.api.extension.ExtendWith;
import io.fabric8.kubernetes.client.server.mock.KubernetesMockServer;
import org.junit.jupiter.api.Test;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;

import io.github.workqueue.autoconfigure.WorkQueueAutoConfiguration;
import io.github.workqueue.kubernetes.autoconfigure.WorkQueueKubernetesAutoConfiguration;
import io.github.workqueue.kubernetes.internal.KubernetesInformers;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Two replicas with in-memory queues elect a leader on a Lease: both informers fill their
 * queues, only the leader's workers process; when the leader's context closes (it
 * releases the Lease), the standby takes over and processes what it queued meanwhile; no
 * key is ever processed by both at once.
 */
@ExtendWith(MockApiServer.class)
class LeaderElectionTest {

	static KubernetesMockServer server;

	static KubernetesClient client;

	private ApplicationContextRunner replica(String identity) {
		return new ApplicationContextRunner()
			.withConfiguration(
					AutoConfigurations.of(WorkQueueAutoConfiguration.class, WorkQueueKubernetesAutoConfiguration.class))
			.withBean(KubernetesClient.class, () -> server.createClient())
			.withUserConfiguration(ReplicaWorker.class)
			.withPropertyValues("workqueue.queues.configmaps.workers=2",
					"workqueue.kubernetes.informers.configmaps.api-version=v1",
					"workqueue.kubernetes.informers.configmaps.kind=ConfigMap",
					"workqueue.kubernetes.informers.configmaps.namespaces=ops",
					"workqueue.kubernetes.leader-election.enabled=true",
					"workqueue.kubernetes.leader-election.lease-name=configmaps-controller",
					"workqueue.kubernetes.leader-election.lease-namespace=ops",
					"workqueue.kubernetes.leader-election.identity=" + identity,
					"workqueue.kubernetes.leader-election.lease-duration=2s",
					"workqueue.kubernetes.leader-election.renew-deadline=1500ms",
					"workqueue.kubernetes.leader-election.retry-period=200ms",
					"workqueue.kubernetes.leader-election.max-clock-skew=100ms");
	}

	@Test
	void onlyTheLeaderShouldProcessAndTheStandbyShouldTakeOverWhenItStops() {
		ReplicaWorker.reset();
		replica("first").run((first) -> {
			KubernetesInformers firstInformers = first.getBean(KubernetesInformers.class);
			InformerFeedTest.awaitWatching(first);
			await().atMost(Duration.ofSeconds(10)).until(firstInformers::isLeading);
			replica("second").run((second) -> {
				KubernetesInformers secondInformers = second.getBean(KubernetesInformers.class);
				InformerFeedTest.awaitWatching(second);
				create("before");
				ReplicaWorker firstWorker = first.getBean(ReplicaWorker.class);
				ReplicaWorker secondWorker = second.getBean(ReplicaWorker.class);
				ObjectKey before = new ObjectKey("ops", "before");
				await().atMost(Duration.ofSeconds(10)).until(() -> firstWorker.count(before) == 1);
				await().atMost(Duration.ofSeconds(5))
					.until(() -> secondInformers.feed("configmaps").get(before).isPresent());
				assertThat(secondInformers.isLeading()).isFalse();
				assertThat(secondWorker.total()).as("the standby's workers are paused").isZero();

				first.close();
				await().atMost(Duration.ofSeconds(10)).until(secondInformers::isLeading);
				create("after");
				ObjectKey after = new ObjectKey("ops", "after");
				await().atMost(Duration.ofSeconds(10)).until(() -> secondWorker.count(after) == 1);
				await().atMost(Duration.ofSeconds(10))
					.alias("the key queued while it stood by")
					.until(() -> secondWorker.count(before) == 1);
				assertThat(firstWorker.count(after)).isZero();
			});
		});
		assertThat(ReplicaWorker.OVERLAPS.get()).as("keys processed by both replicas at once").isZero();
	}

	private static void create(String name) {
		client.configMaps()
			.inNamespace("ops")
			.resource(new ConfigMapBuilder().withNewMetadata().withName(name).endMetadata().build())
			.create();
	}

}
