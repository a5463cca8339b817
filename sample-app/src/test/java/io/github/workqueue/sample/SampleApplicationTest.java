package io.github.workqueue.sample;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;

import org.junit.jupiter.api.Test;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.context.SpringBootTest.WebEnvironment;
import org.springframework.boot.test.web.server.LocalServerPort;

import io.github.workqueue.spring.ProcessingOutcome.Kind;
import io.github.workqueue.spring.QueueWorkerContainer;
import io.github.workqueue.spring.QueueWorkerRegistry;
import io.github.workqueue.test.QueueTester;
import io.github.workqueue.test.RecordedOutcome;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * The sample over real HTTP on a random port, as a user runs it: rapid updates collapse,
 * failures are retried until they succeed (waited for with workqueue-test's
 * {@link QueueTester}), a poisoned key is given up, and the Prometheus scrape and the
 * workqueues endpoint show it all.
 */
@SpringBootTest(webEnvironment = WebEnvironment.RANDOM_PORT,
		properties = { "sample.downstream.failure-rate=0", "sample.downstream.latency=100ms",
				// A higher property source replaces the whole list: restate it.
				"workqueue.queues.deployments.rate-limiter.limiters[0].type=exponential",
				"workqueue.queues.deployments.rate-limiter.limiters[0].base-delay=10ms",
				"workqueue.queues.deployments.rate-limiter.limiters[0].max-delay=1s",
				"workqueue.queues.deployments.rate-limiter.limiters[1].type=bucket",
				"workqueue.queues.deployments.rate-limiter.limiters[1].qps=50",
				"workqueue.queues.deployments.rate-limiter.limiters[1].burst=200",
				"workqueue.queues.audit.rate-limiter.fast-delay=10ms",
				"workqueue.queues.audit.rate-limiter.slow-delay=20ms" })
class SampleApplicationTest {

	private final HttpClient http = HttpClient.newHttpClient();

	@LocalServerPort
	private int port;

	@Autowired
	private DeploymentStore store;

	@Autowired
	private QueueWorkerRegistry workers;

	@Autowired
	private Resync resync;

	@Autowired
	private QueueTester tester;

	@Test
	void rapidUpdatesOfAFewKeysShouldCollapseIntoFewerReconciles() throws Exception {
		int updatesPerKey = 50;
		for (int i = 1; i <= updatesPerKey; i++) {
			for (String key : new String[] { "web", "api", "db" }) {
				assertThat(put("/api/deployments/" + key, "{\"replicas\":" + i + "}").statusCode()).isEqualTo(200);
			}
		}
		await().atMost(Duration.ofSeconds(30)).untilAsserted(() -> {
			for (String key : new String[] { "web", "api", "db" }) {
				Deployment deployment = this.store.get(key);
				assertThat(deployment.reconciledGeneration()).isEqualTo(updatesPerKey);
			}
		});
		long reconciles = 0;
		for (String key : new String[] { "web", "api", "db" }) {
			reconciles += this.store.get(key).reconciles();
		}
		assertThat(reconciles).as("150 updates, each reconcile takes 100ms: many must collapse").isLessThan(150);
		assertThat(get("/api/deployments/web").body()).contains("\"replicas\":50", "\"generation\":50");
	}

	@Test
	void failingItemShouldBeRetriedUntilItSucceeds() throws Exception {
		put("/api/deployments/flaky-1", "{\"replicas\":3}");
		this.tester.awaitIdle("deployments", Duration.ofSeconds(30));
		assertThat(this.tester.outcomes("deployments", "flaky-1")).extracting(RecordedOutcome::kind)
			.as("failed, retried, then reconciled")
			.startsWith(Kind.RETRIED)
			.endsWith(Kind.SUCCEEDED)
			.doesNotContain(Kind.GIVEN_UP);
		assertThat(this.store.get("flaky-1").reconciledGeneration()).isEqualTo(1);
		String scrape = get("/actuator/prometheus").body();
		assertThat(scrape).containsPattern("workqueue_retries_total\\{name=\"deployments\"} [1-9]");
	}

	@Test
	void poisonedItemShouldBeGivenUpAfterMaxRetries() throws Exception {
		put("/api/deployments/poison-1", "{\"replicas\":1}");
		await().atMost(Duration.ofSeconds(30))
			.untilAsserted(() -> assertThat(get("/api/dead-letters").body()).contains("audit:poison-1"));
		assertThat(get("/actuator/prometheus").body())
			.containsPattern("workqueue_worker_outcomes_total\\{name=\"audit\",outcome=\"given_up\"} [1-9]")
			.containsPattern("workqueue_dead_letters\\{name=\"audit\"} [1-9]")
			.contains("workqueue_dead_letters_dropped_total{name=\"audit\"} 0.0")
			.containsPattern("workqueue_oldest_ready_item_seconds\\{name=\"audit\"} ");
	}

	@Test
	void scrapeAndEndpointShouldShowBothQueues() throws Exception {
		put("/api/deployments/visible", "{\"replicas\":1}");
		await().atMost(Duration.ofSeconds(30))
			.untilAsserted(() -> assertThat(this.store.get("visible").reconciledGeneration()).isEqualTo(1));
		String scrape = get("/actuator/prometheus").body();
		assertThat(scrape).contains("workqueue_adds_total{name=\"deployments\"}",
				"workqueue_adds_total{name=\"audit\"}", "workqueue_depth{name=\"deployments\",priority=\"0\"}",
				"workqueue_queue_duration_seconds_bucket{name=\"deployments\"",
				"workqueue_work_duration_seconds_count{name=\"audit\"}", "workqueue_waiting{name=\"deployments\"}");
		HttpResponse<String> endpoint = get("/actuator/workqueues");
		assertThat(endpoint.statusCode()).isEqualTo(200);
		assertThat(endpoint.body()).contains("\"deployments\":{", "\"audit\":{", "\"configured\":4", "\"configured\":2",
				"fast-slow(fast=PT0.01S, slow=PT0.02S, maxFastAttempts=2)");
		assertThat(endpoint.body())
			.containsPattern("\"deployments\":\\{\"backend\":\"memory\",\"depth\":\\d+,\"depthByPriority\":\\{");
		assertThat(get("/actuator/workqueues/deployments").body()).contains("\"adds\":");
		assertThat(get("/actuator/health").body())
			.contains("\"workqueues\":{\"components\":{\"audit\":{\"status\":\"UP\"");
		assertThat(get("/actuator/health/workqueues/deployments").body()).startsWith("{\"status\":\"UP\"");
	}

	@Test
	void userChangesShouldOvertakeTheResyncAndTenantsShouldShowInTheEndpoint() throws Exception {
		QueueWorkerContainer container = this.workers.getContainer("deployments");
		container.pause();
		try {
			put("/api/deployments/acme.web", "{\"replicas\":1}");
			put("/api/deployments/acme.api", "{\"replicas\":1}");
			this.resync.resyncAll();
			put("/api/deployments/globex.db", "{\"replicas\":1}");
			String queue = get("/actuator/workqueues/deployments").body();
			assertThat(queue).contains("\"depthByFairnessKey\":{", "\"acme\":2", "\"globex\":1");
			assertThat(queue).containsPattern("\"depthByPriority\":\\{\"10\":3(,\"-10\":\\d+)?}");
		}
		finally {
			container.resume();
		}
		await().atMost(Duration.ofSeconds(30))
			.untilAsserted(() -> assertThat(this.store.get("globex.db").reconciledGeneration()).isEqualTo(1));
	}

	private HttpResponse<String> get(String path) throws Exception {
		return this.http.send(HttpRequest.newBuilder(uri(path)).GET().build(), HttpResponse.BodyHandlers.ofString());
	}

	private HttpResponse<String> put(String path, String json) throws Exception {
		return this.http.send(HttpRequest.newBuilder(uri(path))
			.header("Content-Type", "application/json")
			.PUT(HttpRequest.BodyPublishers.ofString(json))
			.build(), HttpResponse.BodyHandlers.ofString());
	}

	private URI uri(String path) {
		return URI.create("http://localhost:" + this.port + path);
	}

}
