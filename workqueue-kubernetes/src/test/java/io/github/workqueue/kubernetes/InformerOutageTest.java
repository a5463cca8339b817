package io.github.workqueue.kubernetes;

import java.io.IOException;
import java.net.InetAddress;
import java.net.URI;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

import io.fabric8.kubernetes.api.model.ConfigMapBuilder;
import io.fabric8.kubernetes.api.model.StatusBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import io.fabric8.kubernetes.client.server.mock.KubernetesMockServer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.health.contributor.HealthIndicator;
import org.springframework.boot.health.contributor.Status;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;

import io.github.workqueue.autoconfigure.WorkQueueAutoConfiguration;
import io.github.workqueue.kubernetes.FaultProxy.Mode;
import io.github.workqueue.kubernetes.autoconfigure.WorkQueueKubernetesAutoConfiguration;
import io.github.workqueue.kubernetes.internal.InformerFeed;
import io.github.workqueue.kubernetes.internal.KubernetesInformers;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Outages that fabric8 alone hides from an informer, or sits out with its own backoff, on
 * the mock API server: a TCP cut while watching (the watch manager reconnects by itself),
 * and lists refused (403) until RBAC is fixed, after which the informer must be back
 * within its bounded backoff, not after fabric8's 1, 2, 4, 8, 16 s.
 */
@ExtendWith(MockApiServer.class)
class InformerOutageTest {

	static KubernetesMockServer server;

	static KubernetesClient client;

	@Test
	void aTcpCutWhileWatchingShouldTurnTheHealthDownPastTheThresholdAndUpAfter() throws IOException {
		URI master = URI.create(client.getConfiguration().getMasterUrl());
		try (FaultProxy proxy = new FaultProxy(InetAddress.getByName(master.getHost()), master.getPort())) {
			informer("cut").withBean(KubernetesClient.class, () -> through(proxy)).run((context) -> {
				InformerFeed<?> feed = context.getBean(KubernetesInformers.class).feed("configmaps");
				HealthIndicator health = context.getBean("kubernetesInformersHealthIndicator", HealthIndicator.class);
				await().atMost(Duration.ofSeconds(20)).until(() -> feed.hasSynced() && feed.isWatching());
				proxy.mode(Mode.REFUSE);
				List<Status> timeline = new CopyOnWriteArrayList<>();
				await().pollInterval(Duration.ofMillis(100))
					.atMost(Duration.ofSeconds(15))
					.alias("DOWN while cut off")
					.until(() -> {
						timeline.add(health.health(true).getStatus());
						return timeline.contains(Status.DOWN);
					});
				assertThat(String.valueOf(health.health(true).getDetails().get("problems"))).contains("not watching");
				assertThat(feed.failures("not-watching") + feed.failures("unreachable")).isPositive();
				proxy.mode(Mode.PASS);
				long back = System.nanoTime();
				await().atMost(Duration.ofSeconds(15))
					.alias("UP once it watches again")
					.until(() -> health.health(true).getStatus().equals(Status.UP));
				assertThat(Duration.ofNanos(System.nanoTime() - back)).as("back within the bounded backoff")
					.isLessThan(Duration.ofSeconds(5));
				client.configMaps()
					.inNamespace("cut")
					.resource(new ConfigMapBuilder().withNewMetadata().withName("after").endMetadata().build())
					.create();
				await().atMost(Duration.ofSeconds(10)).until(() -> feed.get(new ObjectKey("cut", "after")).isPresent());
			});
		}
	}

	@Test
	void listsRefusedUntilRbacIsFixedShouldBeRetriedWithinTheBoundedBackoffAndCountedEach() {
		server.expect()
			.get()
			.withPath("/api/v1/namespaces/rbac/configmaps?resourceVersion=0")
			.andReturn(403, new StatusBuilder().withCode(403).withMessage("configmaps is forbidden").build())
			.times(7);
		long start = System.nanoTime();
		informer("rbac").withBean(KubernetesClient.class, () -> server.createClient()).run((context) -> {
			InformerFeed<?> feed = context.getBean(KubernetesInformers.class).feed("configmaps");
			await().atMost(Duration.ofSeconds(30)).until(feed::hasSynced);
			// fabric8's own backoff (1 s doubling) would take 1+2+4+8+16+32 s for the six
			// waits; bounded at 1 s, they take about 0.03+0.06+0.12+0.25+0.5+1 s.
			assertThat(Duration.ofNanos(System.nanoTime() - start)).isLessThan(Duration.ofSeconds(15));
			assertThat(feed.failures("forbidden")).as("each refusal counted").isEqualTo(7);
		});
	}

	@Test
	void listsRefusedWithAServerErrorShouldEachReachTheInformerAndBeCounted() {
		// fabric8's HTTP client would retry a 500 itself, up to ten times, uncounted.
		server.expect()
			.get()
			.withPath("/api/v1/namespaces/etcd/configmaps?resourceVersion=0")
			.andReturn(500, new StatusBuilder().withCode(500).withMessage("etcdserver: request timed out").build())
			.times(3);
		informer("etcd").withBean(KubernetesClient.class, () -> server.createClient()).run((context) -> {
			InformerFeed<?> feed = context.getBean(KubernetesInformers.class).feed("configmaps");
			await().atMost(Duration.ofSeconds(30)).until(feed::hasSynced);
			assertThat(feed.failures("server-error")).as("each 500 counted").isEqualTo(3);
		});
	}

	private static ApplicationContextRunner informer(String namespace) {
		return new ApplicationContextRunner()
			.withConfiguration(
					AutoConfigurations.of(WorkQueueAutoConfiguration.class, WorkQueueKubernetesAutoConfiguration.class))
			.withPropertyValues("workqueue.kubernetes.informers.configmaps.api-version=v1",
					"workqueue.kubernetes.informers.configmaps.kind=ConfigMap",
					"workqueue.kubernetes.informers.configmaps.namespaces=" + namespace,
					"workqueue.kubernetes.watch-outage-threshold=2s", "workqueue.kubernetes.max-retry-backoff=1s");
	}

	private static KubernetesClient through(FaultProxy proxy) {
		return new KubernetesClientBuilder().withConfig(proxy.configThrough(client.getConfiguration()).build()).build();
	}

}
