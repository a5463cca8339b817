package io.github.workqueue.autoconfigure.actuate;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.junit.jupiter.api.Test;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.autoconfigure.SpringBootApplication;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.context.SpringBootTest.WebEnvironment;
import org.springframework.boot.test.web.server.LocalServerPort;

import io.github.workqueue.autoconfigure.WorkQueueRegistry;
import io.github.workqueue.core.AddOptions;
import io.github.workqueue.core.DeadLetter;
import io.github.workqueue.core.DeadLetters;
import io.github.workqueue.core.RateLimitingQueue;
import io.github.workqueue.spring.QueueWorker;
import io.github.workqueue.spring.QueueWorkerRegistry;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

@SpringBootTest(webEnvironment = WebEnvironment.RANDOM_PORT,
		properties = { "management.endpoints.web.exposure.include=workqueues,health",
				"management.endpoint.workqueues.access=unrestricted",
				"management.endpoint.health.show-components=always", "workqueue.queues.orders.workers=2",
				"workqueue.queues.idle.workers=1", "workqueue.health.stuck-threshold=1h",
				// Spring Data Redis is on this module's test class path, with no Redis at
				// its default address: its own health indicator is not what is tested
				// here.
				"management.health.redis.enabled=false" })
class WorkQueuesEndpointWebTest {

	private final HttpClient http = HttpClient.newHttpClient();

	@LocalServerPort
	private int port;

	@Autowired
	private WorkQueueRegistry queues;

	@Autowired
	private QueueWorkerRegistry workers;

	@Autowired
	private TestApplication application;

	@Test
	void readAllShouldListEveryQueue() throws Exception {
		HttpResponse<String> response = get("/actuator/workqueues");
		assertThat(response.statusCode()).isEqualTo(200);
		assertThat(response.body()).contains("\"orders\":{", "\"idle\":{", "\"depth\":0", "\"waiting\":0",
				"\"rateLimiter\":\"max-of[exponential(base=PT0.005S, max=PT16M40S), bucket(qps=10.0, burst=100)]\"",
				"\"configured\":2", "\"live\":2", "\"paused\":false");
	}

	@Test
	void readOneShouldDescribeTheQueue() throws Exception {
		this.queues.getOrCreateQueue("idle").addAfter("later", java.time.Duration.ofHours(1));
		HttpResponse<String> response = get("/actuator/workqueues/idle");
		assertThat(response.statusCode()).isEqualTo(200);
		assertThat(response.body()).contains("\"waiting\":1", "\"method\":\"").doesNotContain("\"queues\"");
	}

	@Test
	void readOneShouldShowTheDepthPerPriority() throws Exception {
		RateLimitingQueue<Object> ranked = this.queues.getOrCreateQueue("ranked");
		ranked.add("resync");
		ranked.add("change", AddOptions.priority(7));
		HttpResponse<String> response = get("/actuator/workqueues/ranked");
		assertThat(response.statusCode()).isEqualTo(200);
		assertThat(response.body()).contains("\"depth\":2", "\"depthByPriority\":{\"7\":1,\"0\":1}",
				"\"depthByFairnessKey\":{}");
	}

	@Test
	void deadLettersShouldBePagedNewestFirst() throws Exception {
		@SuppressWarnings("unchecked")
		DeadLetters<Object> letters = (DeadLetters<Object>) this.workers.getContainer("idle").deadLetters();
		for (int i = 0; i < 150; i++) {
			letters.deadLetter("letter-" + i, "gave up: not retryable", 1, null);
		}
		try {
			HttpResponse<String> first = get("/actuator/workqueues/idle");
			assertThat(first.body())
				.contains("\"deadLetterCount\":150", "\"deadLettersOffset\":0",
						"\"deadLetters\":[{\"item\":\"letter-149\"", "\"item\":\"letter-50\"")
				.doesNotContain("\"item\":\"letter-49\"");
			HttpResponse<String> older = get("/actuator/workqueues/idle?offset=100");
			assertThat(older.body())
				.contains("\"deadLetterCount\":150", "\"deadLettersOffset\":100",
						"\"deadLetters\":[{\"item\":\"letter-49\"", "\"item\":\"letter-0\"")
				.doesNotContain("\"item\":\"letter-50\"");
			HttpResponse<String> searched = get("/actuator/workqueues/idle?search=letter-14");
			assertThat(searched.body()).as("letter-14 and letter-140 to 149").contains("\"deadLetterCount\":11");
			HttpResponse<String> negative = get("/actuator/workqueues/idle?offset=-1");
			assertThat(negative.statusCode()).isEqualTo(400);
			assertThat(negative.body()).contains("offset");
		}
		finally {
			letters.deadLetters().forEach((letter) -> letters.dropDeadLetter(letter.item()));
		}
	}

	@Test
	void aBulkActionShouldBeRefusedWhenTheDeadLettersWereSwappedSinceTheOperatorLooked() throws Exception {
		@SuppressWarnings("unchecked")
		DeadLetters<Object> letters = (DeadLetters<Object>) this.workers.getContainer("idle").deadLetters();
		for (int i = 0; i < 7; i++) {
			letters.deadLetter("swap-" + i, "gave up: not retryable", 1, null);
		}
		try {
			assertThat(get("/actuator/workqueues/idle").body()).contains("\"deadLetterCount\":7");
			DeadLetter seen = letters.deadLetters().get(0);
			// One leaves, one the operator never saw arrives: still seven.
			letters.dropDeadLetter("swap-2");
			letters.deadLetter("swap-unseen", "gave up: not retryable", 1, null);
			String bulk = "{\"action\":\"drop-dead-letter\",\"item\":\"*\",\"search\":\"\",\"count\":7";
			HttpResponse<String> countOnly = post("/actuator/workqueues/idle", bulk + "}");
			assertThat(countOnly.statusCode()).isEqualTo(400);
			assertThat(countOnly.body()).contains("Missing \\\"newest\\\"");
			HttpResponse<String> swapped = post("/actuator/workqueues/idle",
					bulk + ",\"newest\":\"" + seen.item() + "\",\"newestAt\":" + seen.at().toEpochMilli() + "}");
			assertThat(swapped.statusCode()).isEqualTo(400);
			assertThat(swapped.body()).contains("Nothing was changed", "the newest swap-unseen");
			assertThat(letters.deadLetters()).hasSize(7).extracting(DeadLetter::item).contains("swap-unseen");
			DeadLetter now = letters.deadLetters().get(0);
			HttpResponse<String> confirmed = post("/actuator/workqueues/idle",
					bulk + ",\"newest\":\"" + now.item() + "\",\"newestAt\":" + now.at().toEpochMilli() + "}");
			assertThat(confirmed.statusCode()).isEqualTo(200);
			assertThat(letters.deadLetters()).isEmpty();
		}
		finally {
			letters.deadLetters().forEach((letter) -> letters.dropDeadLetter(letter.item()));
		}
	}

	@Test
	void workersShouldCarryTheStuckThresholdForThePage() throws Exception {
		assertThat(get("/actuator/workqueues/orders").body()).contains("\"stuckAfterSeconds\":3600.0");
	}

	@Test
	void unknownQueueShouldBe404() throws Exception {
		assertThat(get("/actuator/workqueues/nope").statusCode()).isEqualTo(404);
	}

	@Test
	void pauseAndResumeShouldControlTheWorkers() throws Exception {
		HttpResponse<String> paused = post("/actuator/workqueues/orders", "{\"action\":\"pause\"}");
		assertThat(paused.statusCode()).isEqualTo(200);
		assertThat(paused.body()).contains("\"paused\":true");
		assertThat(this.workers.getContainer("orders").isPaused()).isTrue();
		this.queues.getOrCreateQueue("orders").add("while-paused");
		assertThat(this.application.processed.getCount()).isEqualTo(1);
		HttpResponse<String> resumed = post("/actuator/workqueues/orders", "{\"action\":\"resume\"}");
		assertThat(resumed.statusCode()).isEqualTo(200);
		assertThat(resumed.body()).contains("\"paused\":false");
		assertThat(this.application.processed.await(10, TimeUnit.SECONDS)).isTrue();
	}

	@Test
	void removeShouldTakeAQueuedKeyOutOrSayThatNothingWasRemoved() throws Exception {
		RateLimitingQueue<Object> loose = this.queues.getOrCreateQueue("loose");
		loose.add("a");
		loose.add("b");
		HttpResponse<String> removed = post("/actuator/workqueues/loose", "{\"action\":\"remove\",\"item\":\"b\"}");
		assertThat(removed.statusCode()).isEqualTo(200);
		assertThat(removed.body()).contains("\"depth\":1");
		HttpResponse<String> again = post("/actuator/workqueues/loose", "{\"action\":\"remove\",\"item\":\"b\"}");
		assertThat(again.statusCode()).isEqualTo(400);
		assertThat(again.body()).contains("Nothing was removed: 'b' is not queued, waiting or due to run again");
		HttpResponse<String> missing = post("/actuator/workqueues/loose", "{\"action\":\"remove\"}");
		assertThat(missing.statusCode()).isEqualTo(400);
		assertThat(missing.body()).contains("Missing \\\"item\\\"");
		assertThat(loose.len()).isEqualTo(1);
	}

	@Test
	void readAllShouldSayWhenItWasRead() throws Exception {
		long before = System.currentTimeMillis();
		HttpResponse<String> response = get("/actuator/workqueues");
		Matcher time = Pattern.compile("\"time\":(\\d+)").matcher(response.body());
		assertThat(time.find()).isTrue();
		assertThat(Long.parseLong(time.group(1))).isBetween(before, System.currentTimeMillis());
	}

	@Test
	void badInputShouldBe400WithABodyThatSaysWhatIsWrong() throws Exception {
		HttpResponse<String> unknownAction = post("/actuator/workqueues/orders", "{\"action\":\"explode\"}");
		assertThat(unknownAction.statusCode()).isEqualTo(400);
		assertThat(unknownAction.body()).contains("Unknown action 'explode'")
			.contains(
					"\"actions\":[\"pause\",\"resume\",\"pause-everywhere\",\"resume-everywhere\",\"remove\",\"requeue-dead-letter\",\"drop-dead-letter\",\"requeue-parked\",\"drop-parked\"]");
		HttpResponse<String> missingAction = post("/actuator/workqueues/orders", "{}");
		assertThat(missingAction.statusCode()).isEqualTo(400);
		assertThat(missingAction.body()).contains("Missing \\\"action\\\"");
	}

	@Test
	void aWriteToAnUnknownQueueShouldBe404LikeARead() throws Exception {
		HttpResponse<String> response = post("/actuator/workqueues/nope", "{\"action\":\"pause\"}");
		assertThat(response.statusCode()).isEqualTo(404);
		assertThat(response.body()).contains("No queue named 'nope'").contains("\"queues\":[");
	}

	@Test
	void healthShouldIncludeTheWorkQueues() throws Exception {
		HttpResponse<String> response = get("/actuator/health");
		assertThat(response.statusCode()).isEqualTo(200);
		assertThat(response.body()).contains(
				"\"workqueues\":{\"components\":{\"idle\":{\"status\":\"UP\"},\"orders\":{\"status\":\"UP\"}},\"status\":\"UP\"}");
		HttpResponse<String> orders = get("/actuator/health/workqueues/orders");
		assertThat(orders.statusCode()).isEqualTo(200);
		assertThat(orders.body()).startsWith("{\"status\":\"UP\"");
		assertThat(get("/actuator/health/workqueues/nope").statusCode()).isEqualTo(404);
	}

	private HttpResponse<String> get(String path) throws Exception {
		return this.http.send(HttpRequest.newBuilder(uri(path)).GET().build(), HttpResponse.BodyHandlers.ofString());
	}

	private HttpResponse<String> post(String path, String json) throws Exception {
		return this.http.send(HttpRequest.newBuilder(uri(path))
			.header("Content-Type", "application/json")
			.POST(HttpRequest.BodyPublishers.ofString(json))
			.build(), HttpResponse.BodyHandlers.ofString());
	}

	private URI uri(String path) {
		return URI.create("http://localhost:" + this.port + path);
	}

	@SpringBootApplication
	static class TestApplication {

		final CountDownLatch processed = new CountDownLatch(1);

		@QueueWorker("orders")
		void orders(String item) {
			this.processed.countDown();
		}

		@QueueWorker("idle")
		void idle(String item) {
		}

	}

}
