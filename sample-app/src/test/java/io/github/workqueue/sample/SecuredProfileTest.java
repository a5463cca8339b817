package io.github.workqueue.sample;

import java.net.CookieManager;
import java.net.HttpCookie;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.util.Base64;

import org.junit.jupiter.api.Test;

import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.context.SpringBootTest.WebEnvironment;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.test.context.ActiveProfiles;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The sample's {@code secured} profile over real HTTP, as docs/operations.md ("Securing
 * the endpoint and the page") describes it: probes read the health without credentials,
 * viewers read the endpoint and the page but cannot write, operators write with the CSRF
 * token of the {@code XSRF-TOKEN} cookie (as the dashboard does), and a write without the
 * token is refused.
 */
@SpringBootTest(webEnvironment = WebEnvironment.RANDOM_PORT,
		properties = { "sample.security.viewer-password=v-test", "sample.security.operator-password=o-test" })
@ActiveProfiles("secured")
class SecuredProfileTest {

	private static final String PAUSE = "{\"action\":\"pause\"}";

	@LocalServerPort
	private int port;

	@Test
	void healthShouldBeOpenForProbes() throws Exception {
		assertThat(send(client(), get("/actuator/health", null)).statusCode()).isEqualTo(200);
	}

	@Test
	void readsShouldNeedAViewerOrAnOperator() throws Exception {
		HttpClient client = client();
		assertThat(send(client, get("/actuator/workqueues", null)).statusCode()).isEqualTo(401);
		assertThat(send(client, get("/actuator/workqueues-dashboard/", null)).statusCode()).isEqualTo(401);
		assertThat(send(client, get("/actuator/workqueues", "viewer:wrong")).statusCode()).isEqualTo(401);
		assertThat(send(client, get("/actuator/workqueues", "viewer:v-test")).statusCode()).isEqualTo(200);
		assertThat(send(client, get("/actuator/workqueues-dashboard/", "viewer:v-test")).statusCode()).isEqualTo(200);
		assertThat(send(client, get("/actuator/workqueues", "operator:o-test")).statusCode()).isEqualTo(200);
	}

	@Test
	void writesShouldNeedAnOperatorAndTheCsrfToken() throws Exception {
		CookieManager cookies = new CookieManager();
		HttpClient client = HttpClient.newBuilder().cookieHandler(cookies).build();
		assertThat(send(client, get("/actuator/workqueues/audit", "operator:o-test")).statusCode()).isEqualTo(200);
		String token = cookies.getCookieStore()
			.get(URI.create(url("/")))
			.stream()
			.filter((cookie) -> cookie.getName().equals("XSRF-TOKEN"))
			.map(HttpCookie::getValue)
			.findFirst()
			.orElseThrow(() -> new AssertionError("no XSRF-TOKEN cookie after a read"));
		assertThat(send(client, post("/actuator/workqueues/audit", "operator:o-test", null)).statusCode())
			.as("a write without the token")
			.isEqualTo(403);
		assertThat(send(client, post("/actuator/workqueues/audit", "viewer:v-test", token)).statusCode())
			.as("a viewer's write")
			.isEqualTo(403);
		HttpResponse<String> paused = send(client, post("/actuator/workqueues/audit", "operator:o-test", token));
		assertThat(paused.statusCode()).isEqualTo(200);
		assertThat(paused.body()).contains("\"paused\":true");
		send(client,
				HttpRequest.newBuilder(URI.create(url("/actuator/workqueues/audit")))
					.header("Authorization", basic("operator:o-test"))
					.header("X-XSRF-TOKEN", token)
					.header("Content-Type", "application/json")
					.POST(HttpRequest.BodyPublishers.ofString("{\"action\":\"resume\"}"))
					.build());
	}

	@Test
	void theSamplesOwnApiShouldStayOpen() throws Exception {
		assertThat(send(client(), get("/api/deployments", null)).statusCode()).isEqualTo(200);
	}

	private HttpClient client() {
		return HttpClient.newHttpClient();
	}

	private HttpRequest get(String path, String credentials) {
		HttpRequest.Builder builder = HttpRequest.newBuilder(URI.create(url(path)));
		if (credentials != null) {
			builder.header("Authorization", basic(credentials));
		}
		return builder.build();
	}

	private HttpRequest post(String path, String credentials, String token) {
		HttpRequest.Builder builder = HttpRequest.newBuilder(URI.create(url(path)))
			.header("Authorization", basic(credentials))
			.header("Content-Type", "application/json")
			.POST(HttpRequest.BodyPublishers.ofString(PAUSE));
		if (token != null) {
			builder.header("X-XSRF-TOKEN", token);
		}
		return builder.build();
	}

	private static HttpResponse<String> send(HttpClient client, HttpRequest request) throws Exception {
		return client.send(request, HttpResponse.BodyHandlers.ofString());
	}

	private static String basic(String credentials) {
		return "Basic " + Base64.getEncoder().encodeToString(credentials.getBytes(StandardCharsets.UTF_8));
	}

	private String url(String path) {
		return "http://localhost:" + this.port + path;
	}

}
