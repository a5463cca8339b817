package io.github.workqueue.sample;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;

import io.github.workqueue.redis.TestRedis;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * The sample's jar, processed ahead of time by the build ({@code process-aot}, as for a
 * native image), started as a user would with {@code -Dspring.aot.enabled=true}, on
 * memory and on Redis: each starts on its generated bean definitions (it says
 * "AOT-processed") and reconciles a key put through its HTTP API. Run in the
 * {@code integration-test} phase, after the jar is built.
 */
class AheadOfTimeStartIT {

	/** Set by the build's integration-test phase, once the jar is packaged. */
	private static final String JAR_PROPERTY = "sample.jar";

	private final HttpClient http = HttpClient.newHttpClient();

	@Test
	void theProcessedSampleShouldStartAndReconcileInMemory() throws Exception {
		startAndReconcile(List.of(), "memory");
	}

	@Test
	void theProcessedSampleShouldStartAndReconcileOnRedis() throws Exception {
		startAndReconcile(List.of("--spring.profiles.active=redis", "--spring.data.redis.url=" + TestRedis.uri(),
				"--workqueue.defaults.key-prefix=" + TestRedis.uniqueName("aot")), "redis");
	}

	private void startAndReconcile(List<String> arguments, String backend) throws Exception {
		String jarPath = System.getProperty(JAR_PROPERTY);
		Assumptions.assumeTrue(jarPath != null,
				"the sample's jar is tested in the integration-test phase (./mvnw verify), once packaged");
		Path jar = Path.of(jarPath);
		assertThat(jar).as("the sample's jar, built before this phase").exists();
		int port = TestRedis.freePort();
		List<String> command = new ArrayList<>(
				List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(), "-Dspring.aot.enabled=true",
						"-jar", jar.toString(), "--server.port=" + port, "--sample.downstream.failure-rate=0",
						"--sample.downstream.latency=10ms"));
		command.addAll(arguments);
		Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
		List<String> output = new CopyOnWriteArrayList<>();
		CountDownLatch started = new CountDownLatch(1);
		Thread reader = new Thread(() -> {
			try (BufferedReader lines = new BufferedReader(
					new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8))) {
				for (String line; (line = lines.readLine()) != null;) {
					output.add(line);
					if (line.contains("Started SampleApplication")) {
						started.countDown();
					}
				}
			}
			catch (java.io.IOException ex) {
				// The process ended.
			}
		});
		reader.setDaemon(true);
		reader.start();
		try {
			assertThat(started.await(90, TimeUnit.SECONDS)).as("started:\n" + String.join("\n", output)).isTrue();
			assertThat(output).as("on the generated bean definitions")
				.anySatisfy((line) -> assertThat(line).contains("Starting AOT-processed SampleApplication"));
			String key = "http://localhost:" + port + "/api/deployments/aot-1";
			HttpResponse<String> put = this.http.send(HttpRequest.newBuilder(URI.create(key))
				.header("Content-Type", "application/json")
				.PUT(HttpRequest.BodyPublishers.ofString("{\"replicas\":2}"))
				.build(), HttpResponse.BodyHandlers.ofString());
			assertThat(put.statusCode()).isEqualTo(200);
			await().atMost(Duration.ofSeconds(30))
				.untilAsserted(() -> assertThat(this.http
					.send(HttpRequest.newBuilder(URI.create(key)).build(), HttpResponse.BodyHandlers.ofString())
					.body()).contains("\"reconciledGeneration\":1"));
			assertThat(this.http
				.send(HttpRequest
					.newBuilder(URI.create("http://localhost:" + port + "/actuator/workqueues/deployments"))
					.build(), HttpResponse.BodyHandlers.ofString())
				.body()).as("the queue's backend, chosen at run time").contains("\"backend\":\"" + backend + "\"");
			assertThat(output).as("no error logged").noneSatisfy((line) -> assertThat(line).contains(" ERROR "));
		}
		finally {
			process.destroy();
			if (!process.waitFor(30, TimeUnit.SECONDS)) {
				process.destroyForcibly();
			}
			Files.write(Path.of("target", "aot-start-" + backend + ".log"), output);
		}
	}

}
