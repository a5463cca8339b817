package io.github.workqueue.autoconfigure.dashboard;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;

import org.junit.jupiter.api.Test;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.autoconfigure.SpringBootApplication;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.context.SpringBootTest.WebEnvironment;
import org.springframework.boot.test.web.server.LocalServerPort;

import io.github.workqueue.autoconfigure.WorkQueueRegistry;
import io.github.workqueue.autoconfigure.actuate.RecentRates;
import io.github.workqueue.spring.QueueWorker;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The dashboard over real HTTP, in an application with a servlet context path and
 * Actuator's writes turned off: the page is served from the jar and told where the
 * endpoint is, the endpoint hands it the recent rates, and writes stay refused.
 */
@SpringBootTest(webEnvironment = WebEnvironment.RANDOM_PORT,
		properties = { "server.servlet.context-path=/app", "management.endpoints.web.exposure.include=workqueues",
				"management.endpoint.workqueues.access=read-only", "workqueue.dashboard.enabled=true",
				// Sampled by the test, not by the clock.
				"workqueue.dashboard.sample-interval=1h", "workqueue.dashboard.history=2h",
				"workqueue.queues.orders.workers=1", "management.health.redis.enabled=false" })
class DashboardWebTest {

	private final HttpClient http = HttpClient.newHttpClient();

	@LocalServerPort
	private int port;

	@Autowired
	private RecentRates rates;

	@Autowired
	private WorkQueueRegistry queues;

	@Test
	void thePageShouldBeServedUnderTheActuatorBasePathAndKnowWhereTheEndpointIs() throws Exception {
		HttpResponse<String> page = get("/app/actuator/workqueues-dashboard/");
		assertThat(page.statusCode()).isEqualTo(200);
		assertThat(page.headers().firstValue("Content-Type"))
			.hasValueSatisfying((type) -> assertThat(type).startsWith("text/html"));
		assertThat(page.headers().firstValue("Content-Security-Policy"))
			.hasValueSatisfying((policy) -> assertThat(policy).contains("default-src 'self'"));
		assertThat(page.body()).contains("data-endpoint=\"/app/actuator/workqueues\"",
				"data-refresh-millis=\"3600000\"", "data-history-millis=\"7200000\"", "<script src=\"format.js\"",
				"<script src=\"charts.js\"", "<script src=\"endpoint.js\"", "<script src=\"lists.js\"",
				"<script src=\"dashboard.js\"");
	}

	@Test
	void thePathWithoutItsSlashShouldRedirectSoThatTheAssetsResolve() throws Exception {
		HttpResponse<String> response = get("/app/actuator/workqueues-dashboard");
		assertThat(response.statusCode()).isEqualTo(302);
		assertThat(response.headers().firstValue("Location")).hasValue("workqueues-dashboard/");
	}

	@Test
	void theAssetsShouldBeServedAndNothingElse() throws Exception {
		HttpResponse<String> script = get("/app/actuator/workqueues-dashboard/dashboard.js");
		assertThat(script.statusCode()).isEqualTo(200);
		assertThat(script.headers().firstValue("Content-Type"))
			.hasValueSatisfying((type) -> assertThat(type).startsWith("text/javascript"));
		assertThat(script.body()).contains("'use strict'");
		assertThat(get("/app/actuator/workqueues-dashboard/dashboard.css").statusCode()).isEqualTo(200);
		assertThat(get("/app/actuator/workqueues-dashboard/format.js").body()).contains("window.workqueueFormat");
		assertThat(get("/app/actuator/workqueues-dashboard/charts.js").body()).contains("window.workqueueCharts");
		assertThat(get("/app/actuator/workqueues-dashboard/endpoint.js").body()).contains("window.workqueueEndpoint");
		assertThat(get("/app/actuator/workqueues-dashboard/lists.js").body()).contains("window.workqueueLists");
		assertThat(get("/app/actuator/workqueues-dashboard/application.properties").statusCode()).isEqualTo(404);
	}

	@Test
	void theEndpointShouldHandTheRecentRatesOnlyWhenAskedFor() throws Exception {
		long start = System.currentTimeMillis() + 86_400_000L;
		this.rates.sample(start);
		this.queues.getOrCreateQueue("orders").add("one");
		this.rates.sample(start + 1_000);
		String withRates = get("/app/actuator/workqueues?since=" + (start - 1)).body();
		assertThat(withRates).contains("\"backend\":\"memory\"",
				"{\"time\":" + (start + 1_000) + ",\"addsPerSecond\":1.0,");
		assertThat(get("/app/actuator/workqueues?since=" + (start + 1_000)).body()).contains("\"recent\":[]");
		assertThat(get("/app/actuator/workqueues").body()).doesNotContain("\"recent\":[");
	}

	@Test
	void writesShouldStayRefusedWhenTheEndpointIsReadOnly() throws Exception {
		HttpResponse<String> response = this.http.send(HttpRequest.newBuilder(uri("/app/actuator/workqueues/orders"))
			.header("Content-Type", "application/json")
			.POST(HttpRequest.BodyPublishers.ofString("{\"action\":\"pause\"}"))
			.build(), HttpResponse.BodyHandlers.ofString());
		assertThat(response.statusCode()).isEqualTo(405);
	}

	private HttpResponse<String> get(String path) throws Exception {
		return this.http.send(HttpRequest.newBuilder(uri(path)).GET().build(), HttpResponse.BodyHandlers.ofString());
	}

	private URI uri(String path) {
		return URI.create("http://localhost:" + this.port + path);
	}

	@SpringBootApplication
	static class TestApplication {

		@QueueWorker("orders")
		void orders(String item) {
		}

	}

}
