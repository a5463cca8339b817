package io.github.workqueue.autoconfigure.actuate;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;

import org.junit.jupiter.api.Test;

import org.springframework.boot.autoconfigure.SpringBootApplication;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.context.SpringBootTest.WebEnvironment;
import org.springframework.boot.test.web.server.LocalServerPort;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The endpoint's bodies are written by Actuator's own mapper, not the application's: the
 * dashboard's JavaScript reads their field names, which must not follow
 * {@code spring.jackson.*}.
 */
@SpringBootTest(webEnvironment = WebEnvironment.RANDOM_PORT,
		properties = { "management.endpoints.web.exposure.include=workqueues",
				"spring.jackson.property-naming-strategy=SNAKE_CASE", "workqueue.queues.orders.workers=1",
				"management.health.redis.enabled=false" })
class WorkQueuesEndpointJsonTest {

	@LocalServerPort
	private int port;

	@Test
	void theApplicationsNamingStrategyShouldNotRenameTheFields() throws Exception {
		HttpClient http = HttpClient.newHttpClient();
		for (String path : new String[] { "/actuator/workqueues", "/actuator/workqueues/orders",
				"/actuator/workqueues/nope" }) {
			HttpResponse<String> response = http.send(
					HttpRequest.newBuilder(URI.create("http://localhost:" + this.port + path)).build(),
					HttpResponse.BodyHandlers.ofString());
			assertThat(response.body()).as(path).doesNotContain("_by_", "shutting_down");
		}
		HttpResponse<String> one = http
			.send(HttpRequest.newBuilder(URI.create("http://localhost:" + this.port + "/actuator/workqueues/orders"))
				.build(), HttpResponse.BodyHandlers.ofString());
		assertThat(one.body()).contains("\"depthByPriority\"", "\"shuttingDown\"");
	}

	@SpringBootApplication
	static class TestApplication {

	}

}
