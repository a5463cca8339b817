package io.github.workqueue.sample;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.boot.web.server.context.WebServerApplicationContext;
import org.springframework.context.ConfigurableApplicationContext;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The sample applications a browser test starts, each on a free port with a quick
 * downstream and a short sample interval (an argument replaces the default of the same
 * name), and what it asks them over HTTP. {@link #stopAll()} closes those still running.
 */
final class SampleApplications {

	private final HttpClient http = HttpClient.newHttpClient();

	private final List<ConfigurableApplicationContext> started = new ArrayList<>();

	ConfigurableApplicationContext start(String... arguments) {
		Map<String, String> all = new LinkedHashMap<>();
		Stream.concat(
				Stream.of("--server.port=0", "--sample.downstream.failure-rate=0", "--sample.downstream.latency=100ms",
						"--workqueue.dashboard.sample-interval=500ms", "--workqueue.shutdown.timeout=200ms"),
				Stream.of(arguments))
			.forEach((argument) -> all.put(argument.substring(0, argument.indexOf('=')), argument));
		ConfigurableApplicationContext context = new SpringApplicationBuilder(SampleApplication.class)
			.run(all.values().toArray(String[]::new));
		this.started.add(context);
		return context;
	}

	void stopAll() {
		this.started.forEach(ConfigurableApplicationContext::close);
		this.started.clear();
	}

	static String url(ConfigurableApplicationContext context, String path) {
		int port = ((WebServerApplicationContext) context).getWebServer().getPort();
		return "http://localhost:" + port + path;
	}

	HttpResponse<String> get(ConfigurableApplicationContext context, String path) throws Exception {
		return this.http.send(
				HttpRequest.newBuilder(URI.create(url(context, path))).timeout(Duration.ofSeconds(60)).build(),
				HttpResponse.BodyHandlers.ofString());
	}

	HttpResponse<String> post(ConfigurableApplicationContext context, String path, String json) throws Exception {
		return this.http.send(HttpRequest.newBuilder(URI.create(url(context, path)))
			.header("Content-Type", "application/json")
			.POST(HttpRequest.BodyPublishers.ofString(json))
			.build(), HttpResponse.BodyHandlers.ofString());
	}

	void put(ConfigurableApplicationContext context, String path, String json) throws Exception {
		HttpResponse<String> response = this.http.send(HttpRequest.newBuilder(URI.create(url(context, path)))
			.header("Content-Type", "application/json")
			.PUT(HttpRequest.BodyPublishers.ofString(json))
			.build(), HttpResponse.BodyHandlers.ofString());
		assertThat(response.statusCode()).isEqualTo(200);
	}

}
