package io.github.workqueue.autoconfigure.managementport;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;

import org.junit.jupiter.api.Test;

import org.springframework.boot.autoconfigure.SpringBootApplication;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.context.SpringBootTest.WebEnvironment;
import org.springframework.boot.test.web.server.LocalManagementPort;
import org.springframework.boot.test.web.server.LocalServerPort;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * With {@code management.server.port} set, Actuator lives on a port of its own, and so
 * does the dashboard: it is served there, beside the endpoint it reads, and not on the
 * application's port.
 */
@SpringBootTest(webEnvironment = WebEnvironment.RANDOM_PORT,
		properties = { "management.server.port=0", "management.endpoints.web.exposure.include=workqueues",
				"workqueue.dashboard.enabled=true", "workqueue.queues.orders.workers=1",
				"management.health.redis.enabled=false" })
class DashboardOnManagementPortTest {

	private final HttpClient http = HttpClient.newHttpClient();

	@LocalServerPort
	private int port;

	@LocalManagementPort
	private int managementPort;

	@Test
	void thePageShouldBeServedOnTheManagementPortBesideTheEndpoint() throws Exception {
		assertThat(this.managementPort).isNotEqualTo(this.port);
		HttpResponse<String> page = get(this.managementPort, "/actuator/workqueues-dashboard/");
		assertThat(page.statusCode()).isEqualTo(200);
		assertThat(page.body()).contains("data-endpoint=\"/actuator/workqueues\"");
		assertThat(get(this.managementPort, "/actuator/workqueues").statusCode()).isEqualTo(200);
		assertThat(get(this.managementPort, "/actuator/workqueues-dashboard/dashboard.js").statusCode()).isEqualTo(200);
		assertThat(get(this.port, "/actuator/workqueues-dashboard/").statusCode()).isEqualTo(404);
	}

	private HttpResponse<String> get(int port, String path) throws Exception {
		return this.http.send(HttpRequest.newBuilder(URI.create("http://localhost:" + port + path)).build(),
				HttpResponse.BodyHandlers.ofString());
	}

	@SpringBootApplication
	static class TestApplication {

	}

}
