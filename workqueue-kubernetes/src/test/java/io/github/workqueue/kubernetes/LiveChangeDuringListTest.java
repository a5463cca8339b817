package io.github.workqueue.kubernetes;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

import io.fabric8.kubernetes.api.model.ConfigMapBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.server.mock.KubernetesMockServer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

import io.github.workqueue.autoconfigure.WorkQueueAutoConfiguration;
import io.github.workqueue.kubernetes.internal.InformerFeed;
import io.github.workqueue.kubernetes.internal.KubernetesInformers;
import io.github.workqueue.kubernetes.autoconfigure.WorkQueueKubernetesAutoConfiguration;
import io.github.workqueue.spring.QueueWorker;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * The whole path from the API server to the worker, on fabric8's mock API server: 2,000
 * ConfigMaps listed at start, one worker of 10 ms reconciles (20 s of listed keys), and a
 * ConfigMap created once the informer watches and the worker has been reconciling listed
 * keys for a second. The list's keys go in at the list priority, below live events', so
 * the new object's key must jump the ~1,900 listed keys still queued once its event
 * arrives.
 * <p>
 * Where the time goes right after the list (measured while writing this test, printing
 * from the handler): the module's handler took the list's 2,000 adds in 68 ms (34 µs
 * each, fabric8's dispatch included) and the live event in microseconds once it came; a
 * change made within the first second after the list reached it 0.3-0.8 s late while the
 * handler sat idle, whereas a second informer on the same mock server, watching for a
 * second already, got the same event in 14-22 ms. The wait is in the mock server's
 * list-to-watch hand-over (its CRUD store matches every stored object per request and per
 * watch), not in the module; hence the second's wait here, and the count of listed keys
 * reconciled before the new one is taken from when its event reached the informer's
 * cache, not from the create: beside two CPU hogs, counted from the create, 78 listed
 * keys ran before it.
 */
@ExtendWith(MockApiServer.class)
class LiveChangeDuringListTest {

	private static final int OBJECTS = 2000;

	static KubernetesMockServer server;

	static KubernetesClient client;

	static final List<String> reconciled = new CopyOnWriteArrayList<>();

	@Test
	void aChangeMadeWhileTheListedKeysRunShouldJumpThem() {
		for (int i = 0; i < OBJECTS; i++) {
			client.configMaps()
				.inNamespace("big")
				.resource(new ConfigMapBuilder().withNewMetadata().withName("cm-" + i).endMetadata().build())
				.create();
		}
		new ApplicationContextRunner()
			.withConfiguration(
					AutoConfigurations.of(WorkQueueAutoConfiguration.class, WorkQueueKubernetesAutoConfiguration.class))
			.withBean(KubernetesClient.class, () -> server.createClient())
			.withUserConfiguration(Worker.class)
			.withPropertyValues("workqueue.queues.configmaps.workers=1",
					"workqueue.kubernetes.informers.configmaps.api-version=v1",
					"workqueue.kubernetes.informers.configmaps.kind=ConfigMap",
					"workqueue.kubernetes.informers.configmaps.namespaces=big")
			.run((context) -> {
				InformerFeed<?> feed = context.getBean(KubernetesInformers.class).feed("configmaps");
				await().atMost(Duration.ofSeconds(30)).until(() -> !reconciled.isEmpty() && feed.isWatching());
				await().pollDelay(Duration.ofSeconds(1)).atMost(Duration.ofSeconds(2)).until(() -> true);
				long created = System.nanoTime();
				int before = reconciled.size();
				client.configMaps()
					.inNamespace("big")
					.resource(new ConfigMapBuilder().withNewMetadata().withName("live").endMetadata().build())
					.create();
				// When the event reached the informer's cache, whose handler adds the key
				// next (a poll every millisecond, where a reconcile takes 10): counted
				// from there, a busy machine cannot move the figure by slowing the mock
				// server.
				ObjectKey live = new ObjectKey("big", "live");
				long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
				while (feed.get(live).isEmpty() && System.nanoTime() < deadline) {
					Thread.sleep(1);
				}
				int arrived = reconciled.size();
				await().atMost(Duration.ofSeconds(30)).until(() -> reconciled.contains("big/live"));
				int listedBefore = reconciled.indexOf("big/live") - arrived;
				System.out.printf(
						"The live change was reconciled %d ms after its create, after %d listed keys once it "
								+ "reached the cache (%d listed keys were still queued at the create, %d when it "
								+ "reached the cache)%n",
						(System.nanoTime() - created) / 1_000_000, listedBefore, OBJECTS - before, OBJECTS - arrived);
				assertThat(OBJECTS - arrived).as("listed keys still queued when the change reached the cache")
					.isGreaterThan(1000);
				assertThat(listedBefore).as("listed keys reconciled after the change reached the cache").isLessThan(50);
			});
	}

	@Configuration(proxyBeanMethods = false)
	static class Worker {

		@Bean
		Object liveChangeWorker() {
			return new Object() {

				@QueueWorker("configmaps")
				void reconcile(ObjectKey key) throws InterruptedException {
					reconciled.add(key.toString());
					Thread.sleep(10);
				}

			};
		}

	}

}
