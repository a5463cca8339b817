package io.github.workqueue.sample;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.UUID;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import com.jayway.jsonpath.JsonPath;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.boot.web.server.context.WebServerApplicationContext;
import org.springframework.context.ConfigurableApplicationContext;

import io.github.workqueue.redis.RedisQueue;
import io.github.workqueue.redis.TestRedis;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Two instances of the sample in the {@code redis} profile, sharing their queues and
 * store on a real Redis, as the README runs them: an update sent to one is reconciled
 * once, by either; shutting down the instance that is reconciling a key mid-work loses
 * nothing, the other finishes it.
 */
class TwoInstancesOnRedisTest {

	private final String prefix = "sample-" + UUID.randomUUID().toString().substring(0, 8);

	private final HttpClient http = HttpClient.newHttpClient();

	private final List<ConfigurableApplicationContext> instances = new java.util.ArrayList<>();

	@AfterEach
	void stop() {
		this.instances.forEach(ConfigurableApplicationContext::close);
	}

	private ConfigurableApplicationContext start(String latency) {
		// Command-line arguments, not builder properties: those are defaults, below
		// application.yml.
		ConfigurableApplicationContext context = new SpringApplicationBuilder(SampleApplication.class).profiles("redis")
			.run("--server.port=0", "--spring.data.redis.url=" + TestRedis.uri(),
					"--workqueue.defaults.key-prefix=" + this.prefix, "--sample.downstream.failure-rate=0",
					"--sample.downstream.latency=" + latency, "--workqueue.shutdown.timeout=200ms");
		this.instances.add(context);
		return context;
	}

	@Test
	void anUpdateSentToOneInstanceShouldBeReconciledOnceByEither() throws Exception {
		ConfigurableApplicationContext a = start("20ms");
		ConfigurableApplicationContext b = start("20ms");
		String key = "web-" + this.prefix;
		put(a, "/api/deployments/" + key, "{\"replicas\":3}");
		await().atMost(Duration.ofSeconds(20))
			.untilAsserted(() -> assertThat(get(b, "/api/deployments/" + key)).contains("\"reconciledGeneration\":1"));
		Thread.sleep(300); // a second reconcile, if there were one, would show by now
		assertThat(get(b, "/api/deployments/" + key)).contains("\"reconciles\":1");
		assertThat(get(a, "/actuator/workqueues/deployments")).contains("\"shared\"");
	}

	@Test
	void shuttingDownTheInstanceThatIsReconcilingShouldLoseNothing() throws Exception {
		ConfigurableApplicationContext a = start("3s");
		ConfigurableApplicationContext b = start("3s");
		String key = "db-" + this.prefix;
		put(a, "/api/deployments/" + key, "{\"replicas\":5}");
		await().atMost(Duration.ofSeconds(20)).until(() -> holder(a, key) || holder(b, key));
		ConfigurableApplicationContext working = holder(a, key) ? a : b;
		ConfigurableApplicationContext survivor = (working == a) ? b : a;
		working.close();
		this.instances.remove(working);
		await().atMost(Duration.ofSeconds(30))
			.untilAsserted(
					() -> assertThat(get(survivor, "/api/deployments/" + key)).contains("\"reconciledGeneration\":1"));
	}

	@Test
	void theGrafanaDashboardShouldOnlyQueryMetricsTheSampleExports() throws Exception {
		ConfigurableApplicationContext shared = start("20ms");
		ConfigurableApplicationContext inMemory = new SpringApplicationBuilder(SampleApplication.class)
			.run("--server.port=0", "--sample.downstream.failure-rate=0", "--sample.downstream.latency=20ms");
		this.instances.add(inMemory);
		String key = "api-" + this.prefix;
		for (ConfigurableApplicationContext instance : List.of(shared, inMemory)) {
			put(instance, "/api/deployments/" + key, "{\"replicas\":1}");
			await().atMost(Duration.ofSeconds(20))
				.untilAsserted(() -> assertThat(get(instance, "/api/deployments/" + key))
					.contains("\"reconciledGeneration\":1"));
		}
		String scrapes = get(shared, "/actuator/prometheus") + get(inMemory, "/actuator/prometheus");
		List<String> queries = JsonPath.read(Files.readString(Path.of("../docs/grafana/workqueue-dashboard.json")),
				"$..expr");
		Set<String> metrics = new TreeSet<>();
		queries.forEach((query) -> Pattern.compile("\\bworkqueue_[a-z_]+")
			.matcher(query)
			.results()
			.forEach((metric) -> metrics.add(metric.group())));
		assertThat(metrics).hasSizeGreaterThan(15)
			.allSatisfy((metric) -> assertThat(scrapes).as("a scrape has %s", metric).contains("\n" + metric + "{"));
		assertThat(scrapes).as("the queue-wide depth, per priority")
			.contains("\nworkqueue_shared_depth{name=\"deployments\",priority=\"0\"}");
		assertScalingQueriesRead(scrapes);
	}

	/**
	 * The scaling manifests (KEDA, the Prometheus adapter) query metrics the sample
	 * exports, with the labels it gives them (Prometheus adds {@code namespace} itself).
	 */
	private static void assertScalingQueriesRead(String scrapes) throws IOException {
		Set<String> series = new TreeSet<>();
		Set<String> grouped = new TreeSet<>();
		try (Stream<Path> manifests = Files.list(Path.of("kubernetes"))) {
			for (Path manifest : manifests.filter((path) -> !path.toString().endsWith("crd.yaml")).toList()) {
				String text = Files.readString(manifest);
				Pattern.compile("\\b(workqueue_[a-z_]+)\\{([^}]*)}")
					.matcher(text)
					.results()
					.forEach((match) -> series.add(match.group(1) + "{" + match.group(2)));
				Pattern.compile("by \\(([a-z_, ]+)\\)")
					.matcher(text)
					.results()
					.forEach((match) -> grouped.addAll(List.of(match.group(1).split(",\\s*"))));
			}
		}
		assertThat(series).as("the queries of the scaling manifests")
			.contains("workqueue_shared_depth{name=\"deployments\", namespace=\"default\"",
					"workqueue_depth{name=\"deployments\", namespace=\"default\"", "workqueue_shared_depth{name!=\"\"");
		for (String query : series) {
			String metric = query.substring(0, query.indexOf('{'));
			assertThat(scrapes).as("a scrape has %s with a name", metric).contains("\n" + metric + "{name=\"");
			if (query.contains("name=\"deployments\"")) {
				assertThat(scrapes).contains("\n" + metric + "{name=\"deployments\"");
			}
		}
		assertThat(grouped).containsExactlyInAnyOrder("name", "priority");
		assertThat(scrapes).as("grouped by its labels")
			.contains("\nworkqueue_shared_depth{name=\"deployments\",priority=\"");
	}

	@SuppressWarnings("unchecked")
	private static boolean holder(ConfigurableApplicationContext context, String key) {
		return context.isActive()
				&& ((RedisQueue<String>) context.getBean("deployments", RedisQueue.class)).lease(key).isPresent();
	}

	private String get(ConfigurableApplicationContext context, String path) throws Exception {
		return this.http
			.send(HttpRequest.newBuilder(uri(context, path)).GET().build(), HttpResponse.BodyHandlers.ofString())
			.body();
	}

	private void put(ConfigurableApplicationContext context, String path, String json) throws Exception {
		HttpResponse<String> response = this.http.send(HttpRequest.newBuilder(uri(context, path))
			.header("Content-Type", "application/json")
			.PUT(HttpRequest.BodyPublishers.ofString(json))
			.build(), HttpResponse.BodyHandlers.ofString());
		assertThat(response.statusCode()).isEqualTo(200);
	}

	private static URI uri(ConfigurableApplicationContext context, String path) {
		int port = ((WebServerApplicationContext) context).getWebServer().getPort();
		return URI.create("http://localhost:" + port + path);
	}

}
