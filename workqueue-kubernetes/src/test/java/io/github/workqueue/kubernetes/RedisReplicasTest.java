package io.github.workqueue.kubernetes;

import java.time.Duration;
import java.util.stream.IntStream;

import io.fabric8.kubernetes.api.model.ConfigMapBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import org.junit.jupiter.api.extension.ExtendWith;
import io.fabric8.kubernetes.client.server.mock.KubernetesMockServer;
import org.junit.jupiter.api.Test;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.data.redis.autoconfigure.DataRedisAutoConfiguration;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;

import io.github.workqueue.autoconfigure.WorkQueueAutoConfiguration;
import io.github.workqueue.autoconfigure.WorkQueueRedisAutoConfiguration;
import io.github.workqueue.kubernetes.autoconfigure.WorkQueueKubernetesAutoConfiguration;
import io.github.workqueue.redis.TestRedis;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Two replicas whose informer-fed queue lives on Redis, without leader election: both
 * informers add every key to the one shared queue, which deduplicates them while queued;
 * both replicas' workers take keys; every key is processed, and none by both replicas at
 * once.
 */
@ExtendWith(MockApiServer.class)
class RedisReplicasTest {

	static KubernetesMockServer server;

	static KubernetesClient client;

	private final String prefix = TestRedis.uniqueName("replicas");

	private ApplicationContextRunner replica() {
		return new ApplicationContextRunner()
			.withConfiguration(
					AutoConfigurations.of(DataRedisAutoConfiguration.class, WorkQueueRedisAutoConfiguration.class,
							WorkQueueAutoConfiguration.class, WorkQueueKubernetesAutoConfiguration.class))
			.withBean(KubernetesClient.class, () -> server.createClient())
			.withUserConfiguration(ReplicaWorker.class)
			.withPropertyValues("spring.data.redis.url=" + TestRedis.uri(), "workqueue.queues.configmaps.backend=redis",
					"workqueue.queues.configmaps.key-prefix=" + this.prefix, "workqueue.queues.configmaps.workers=2",
					"workqueue.kubernetes.informers.configmaps.api-version=v1",
					"workqueue.kubernetes.informers.configmaps.kind=ConfigMap",
					"workqueue.kubernetes.informers.configmaps.namespaces=shared");
	}

	@Test
	void bothReplicasShouldShareTheKeysAndNeverProcessOneAtOnce() {
		ReplicaWorker.reset();
		replica().run((first) -> replica().run((second) -> {
			InformerFeedTest.awaitWatching(first);
			InformerFeedTest.awaitWatching(second);
			IntStream.range(0, 30)
				.forEach((i) -> client.configMaps()
					.inNamespace("shared")
					.resource(new ConfigMapBuilder().withNewMetadata().withName("cm-" + i).endMetadata().build())
					.create());
			ReplicaWorker one = first.getBean(ReplicaWorker.class);
			ReplicaWorker two = second.getBean(ReplicaWorker.class);
			await().atMost(Duration.ofSeconds(30))
				.until(() -> IntStream.range(0, 30)
					.allMatch((i) -> one.count(new ObjectKey("shared", "cm-" + i))
							+ two.count(new ObjectKey("shared", "cm-" + i)) >= 1));
			assertThat(one.total() + two.total()).as("each key at least once, at most once per replica's add")
				.isBetween(30, 60);
		}));
		assertThat(ReplicaWorker.OVERLAPS.get()).as("keys processed by both replicas at once").isZero();
	}

}
