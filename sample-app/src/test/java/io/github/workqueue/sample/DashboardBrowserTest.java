package io.github.workqueue.sample;

import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.UUID;

import io.lettuce.core.RedisClient;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.openqa.selenium.Keys;
import redis.embedded.RedisServer;

import org.springframework.context.ConfigurableApplicationContext;

import io.github.workqueue.autoconfigure.WorkQueueRegistry;
import io.github.workqueue.core.AddOptions;
import io.github.workqueue.core.DeadLetter;
import io.github.workqueue.core.DeadLetters;
import io.github.workqueue.core.RateLimitingQueue;
import io.github.workqueue.redis.ItemCodec;
import io.github.workqueue.redis.ParkedItems;
import io.github.workqueue.redis.RedisQueue;
import io.github.workqueue.redis.RedisQueueConnection;
import io.github.workqueue.redis.TestRedis;
import io.github.workqueue.spring.QueueWorkerContainer;
import io.github.workqueue.spring.QueueWorkerRegistry;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * The dashboard in a real browser (headless Chromium), on the sample as users run it: the
 * page loads without a console error and shows the sample's queues, its charts move while
 * items flow, pause and resume work, a parked item on Redis is requeued and dropped,
 * given-up items are listed as dead letters with their last error and requeued or dropped
 * in bulk, a pause everywhere holds another instance until resumed everywhere, a lease
 * whose holder stopped renewing says how long ago it expired, a Redis outage shows stale
 * figures with the actions disabled (the endpoint and health answering within their
 * bounds) and clears when Redis is back, and read-only access shows no write button.
 * Skipped, saying so, where the machine has no Chromium.
 */
class DashboardBrowserTest {

	private static final String PAGE = "/actuator/workqueues-dashboard/";

	private static Browser browser;

	private final SampleApplications samples = new SampleApplications();

	@BeforeAll
	static void openBrowser() {
		browser = Browser.openOrSkip();
	}

	@AfterAll
	static void closeBrowser() {
		if (browser != null) {
			browser.close();
		}
	}

	@BeforeEach
	void blankPage() {
		// Leave the last test's page, and its console, behind.
		browser.open("about:blank");
		browser.consoleErrors();
	}

	@AfterEach
	void stopApplications() {
		browser.open("about:blank");
		this.samples.stopAll();
	}

	@Test
	void thePageShouldShowTheSampleQueuesWithChartsThatMoveWhileItemsFlow() throws Exception {
		ConfigurableApplicationContext sample = start();
		browser.open(url(sample, PAGE));
		await().ignoreExceptions()
			.atMost(Duration.ofSeconds(15))
			.until(() -> browser.findAll("section.queue").size() == 2 && !browser.text("#updated").contains("loading"));
		assertThat(browser.findAll("section.queue")).extracting((section) -> section.getAttribute("data-queue"))
			.containsExactly("audit", "deployments");
		assertThat(browser.text("[data-queue=deployments] [data-field=backend]")).isEqualTo("memory");
		assertThat(browser.text("[data-queue=deployments] [data-field=workers]")).isEqualTo("4 of 4");
		assertThat(browser.text("[data-queue=deployments] figure:has([data-chart=depth]) figcaption"))
			.as("a queue in memory has no queue-wide depth on Redis")
			.isEqualTo("Depth, items");
		String adds = "[data-queue=deployments] [data-chart=rates] path[data-series=addsPerSecond]";
		String before = browser.attribute(adds, "d");
		for (int i = 0; i < 30; i++) {
			put(sample, "/api/deployments/app-" + i, "{\"replicas\":" + (i + 1) + "}");
		}
		await().ignoreExceptions().atMost(Duration.ofSeconds(15)).untilAsserted(() -> {
			assertThat(browser.attribute(adds, "d")).isNotEqualTo(before).isNotEmpty();
			assertThat(browser.text("[data-queue=deployments] [data-series=addsPerSecond] b")).isNotEqualTo("–");
			assertThat(browser.text("[data-queue=deployments] [data-field=adds]")).isNotEqualTo("0");
			assertThat(browser.text("[data-queue=deployments] [data-series=workDurationP50] b")).isNotEqualTo("–");
		});
		browser.screenshot(Path.of("target", "dashboard-under-load.png"));
		// Quantiles read as what the buckets know: no nanoseconds, no negative times;
		// every chart's axis says its unit.
		for (String legend : browser.findAll("[data-queue=deployments] .legend")
			.stream()
			.map((element) -> element.getText())
			.toList()) {
			assertThat(legend).doesNotContainPattern("[0-9] ns").doesNotContain("−");
		}
		assertThat(browser.findAll("[data-queue=deployments] [data-chart=rates] text.axis").get(0).getText())
			.endsWith("/s");
		assertThat(Integer.parseInt(browser.attribute("[data-queue=deployments] [data-chart=depth]", "data-samples")))
			.isPositive();
		assertThat(browser.text("[data-queue=deployments] [data-field=health]")).isNotEmpty();
		assertThat(browser.consoleErrors()).as("console errors").isEmpty();
	}

	@Test
	void theDepthFigureShouldBeTheLastPointOfItsChartCountingEveryPriorityAndChartsStayLegibleWhenNarrow()
			throws Exception {
		ConfigurableApplicationContext sample = start();
		sample.getBean(QueueWorkerRegistry.class).getContainer("deployments").pause();
		RateLimitingQueue<Object> queue = sample.getBean(WorkQueueRegistry.class).queue("deployments");
		for (int i = 0; i < 30; i++) {
			queue.add("acme.low-" + i, AddOptions.priority(0));
		}
		for (int i = 0; i < 12; i++) {
			queue.add("acme.high-" + i, AddOptions.priority(5));
		}
		browser.open(url(sample, PAGE));
		String figure = "[data-queue=deployments] [data-field=depth]";
		String chartsLast = "[data-queue=deployments] .legend [data-series=depth] b";
		await().ignoreExceptions()
			.atMost(Duration.ofSeconds(15))
			.until(() -> browser.text(figure).equals("42") && browser.text(chartsLast).equals("42"));
		// While the depth changes, every read shows the figure and the chart's last point
		// alike (both read in one script, between two renderings).
		Thread adder = new Thread(() -> {
			for (int i = 0; i < 40; i++) {
				queue.add("globex.more-" + i, AddOptions.priority(i % 3));
				try {
					Thread.sleep(100);
				}
				catch (InterruptedException ex) {
					return;
				}
			}
		});
		adder.start();
		List<String> seen = new ArrayList<>();
		for (int i = 0; i < 20; i++) {
			@SuppressWarnings("unchecked")
			List<String> both = (List<String>) browser
				.script("return [document.querySelector(arguments[0]).textContent,"
						+ " document.querySelector(arguments[1]).textContent]", figure, chartsLast);
			assertThat(both.get(1)).as("the chart's last point").isEqualTo(both.get(0));
			seen.add(both.get(0));
			Thread.sleep(250);
		}
		adder.join();
		assertThat(new HashSet<>(seen)).as("the depths read while it moved").hasSizeGreaterThan(2);
		await().ignoreExceptions()
			.atMost(Duration.ofSeconds(10))
			.until(() -> browser.text(figure).equals("82") && browser.text(chartsLast).equals("82"));

		// In a narrow window a chart is drawn at its width: its labels keep their size.
		browser.windowWidth(420);
		String label = "[data-queue=deployments] [data-chart=depth] text.axis";
		await().ignoreExceptions().atMost(Duration.ofSeconds(10)).untilAsserted(() -> {
			Number scale = (Number) browser.script("const text = document.querySelector(arguments[0]);"
					+ " return text.getBoundingClientRect().width / text.getBBox().width;", label);
			assertThat(scale.doubleValue()).as("drawn width over the label's own width").isBetween(0.95, 1.05);
		});
		assertThat((Boolean) browser.script("return document.documentElement.scrollWidth <= window.innerWidth"))
			.as("nothing wider than the window")
			.isTrue();
		browser.screenshot(Path.of("target", "dashboard-narrow.png"));
		browser.windowWidth(1440);
		assertThat(browser.consoleErrors()).as("console errors").isEmpty();
	}

	@Test
	void pauseAndResumeShouldControlTheWorkers() throws Exception {
		ConfigurableApplicationContext sample = start();
		QueueWorkerContainer deployments = sample.getBean(QueueWorkerRegistry.class).getContainer("deployments");
		browser.open(url(sample, PAGE));
		await().ignoreExceptions()
			.atMost(Duration.ofSeconds(15))
			.until(() -> browser.find("[data-queue=deployments] [data-action=pause]").isDisplayed());
		browser.find("[data-queue=deployments] [data-action=pause]").click();
		await().ignoreExceptions().atMost(Duration.ofSeconds(10)).until(deployments::isPaused);
		await().ignoreExceptions()
			.atMost(Duration.ofSeconds(10))
			.until(() -> browser.text("[data-queue=deployments] [data-field=state]").equals("paused here"));
		// Paused with keys queued: trouble, shown first.
		put(sample, "/api/deployments/held", "{\"replicas\":1}");
		await().ignoreExceptions()
			.atMost(Duration.ofSeconds(10))
			.until(() -> browser.text("[data-queue=deployments] [data-field=health]").equals("paused with a backlog"));
		assertThat(browser.findAll("section.queue").get(0).getAttribute("data-queue")).isEqualTo("deployments");
		browser.find("[data-queue=deployments] [data-action=resume]").click();
		await().ignoreExceptions().atMost(Duration.ofSeconds(10)).until(() -> !deployments.isPaused());
		await().ignoreExceptions()
			.atMost(Duration.ofSeconds(10))
			.until(() -> browser.text("[data-queue=deployments] [data-field=state]").equals("running"));
		// The success banner clears after a while: its text stays in the page.
		assertThat(browser.attribute("#message", "textContent")).contains("Resumed the workers of deployments");
		assertThat(browser.consoleErrors()).as("console errors").isEmpty();
	}

	@Test
	void aQueuedKeyShouldBeRemovedFromThePageAndAPausedInstanceSaySoInTheInstancesList() throws Exception {
		String prefix = "dashboard-" + UUID.randomUUID().toString().substring(0, 8);
		ConfigurableApplicationContext sample = start("--spring.profiles.active=redis",
				"--spring.data.redis.url=" + TestRedis.uri(), "--workqueue.defaults.key-prefix=" + prefix);
		RateLimitingQueue<Object> queue = sample.getBean(WorkQueueRegistry.class).queue("deployments");
		browser.open(url(sample, PAGE));
		String section = "[data-queue=deployments] ";
		await().ignoreExceptions()
			.atMost(Duration.ofSeconds(15))
			.until(() -> browser.find(section + "[data-action=pause]").isDisplayed());
		browser.find(section + "[data-action=pause]").click();
		String here = section + "[data-field=instance-list] tr[data-instance='" + ((RedisQueue<?>) queue).holder()
				+ "'] [data-field=instance-workers]";
		await().ignoreExceptions().atMost(Duration.ofSeconds(15)).until(() -> browser.text(here).equals("paused"));
		for (String key : List.of("acme.one", "acme.two", "globex.three")) {
			queue.add(key);
		}
		String figure = section + "[data-field=depth]";
		await().ignoreExceptions()
			.atMost(Duration.ofSeconds(15))
			.until(() -> browser.text(figure).equals("3")
					&& browser.text(section + ".legend [data-series=depth] b").equals("3"));
		browser.find(section + "[data-field=remove-key]").sendKeys("acme.two");
		browser.find(section + "form [data-action=remove]").click();
		assertThat(browser.acceptConfirmationSaying()).startsWith("Remove acme.two from deployments?");
		await().ignoreExceptions()
			.atMost(Duration.ofSeconds(10))
			.until(() -> browser.text(figure).equals("2")
					&& browser.text("#message").equals("Removed acme.two from deployments."));
		assertThat(queue.len()).isEqualTo(2);
		browser.screenshot(Path.of("target", "dashboard-removed.png"));
		browser.find(section + "[data-field=remove-key]").sendKeys("acme.two");
		browser.find(section + "form [data-action=remove]").click();
		browser.acceptConfirmation();
		await().ignoreExceptions()
			.atMost(Duration.ofSeconds(10))
			.until(() -> browser.text("#message").contains("Nothing was removed: 'acme.two' is not queued"));
		assertThat(browser.consoleErrors()).as("the refusal, logged by the browser")
			.singleElement()
			.asString()
			.contains("status of 400");
		browser.find(section + "[data-action=resume]").click();
		await().ignoreExceptions().atMost(Duration.ofSeconds(15)).until(() -> browser.text(here).equals("taking"));
		assertThat(browser.consoleErrors()).as("console errors").isEmpty();
	}

	@Test
	void aParkedItemShouldBeRequeuedAndDroppedFromThePage() throws Exception {
		String prefix = "dashboard-" + UUID.randomUUID().toString().substring(0, 8);
		ConfigurableApplicationContext sample = start("--spring.profiles.active=redis",
				"--spring.data.redis.url=" + TestRedis.uri(), "--workqueue.defaults.key-prefix=" + prefix,
				"--sample.downstream.latency=400ms");
		QueueWorkerContainer deployments = sample.getBean(QueueWorkerRegistry.class).getContainer("deployments");
		browser.open(url(sample, PAGE));
		String pause = "[data-queue=deployments] [data-action=pause]";
		await().ignoreExceptions().atMost(Duration.ofSeconds(15)).until(() -> browser.find(pause).isDisplayed());
		assertThat(browser.text("[data-queue=deployments] [data-field=backend]")).isEqualTo("redis");
		assertThat(browser.text("[data-queue=deployments] figure:has([data-chart=depth]) figcaption"))
			.isEqualTo("Depth, items (queue-wide on Redis)");
		String holder = ((RedisQueue<?>) sample.getBean("deployments")).holder();
		assertThat(browser.text("[data-queue=deployments] [data-field=here-title]")).containsIgnoringCase(holder);

		// Paused, the sample takes nothing: park two items, and a requeued one stays
		// queued.
		browser.find(pause).click();
		await().atMost(Duration.ofSeconds(10)).until(() -> deployments.isPaused() && deployments.inFlight() == 0);
		park(prefix, "acme.stuck");
		park(prefix, "acme.poison");
		String stuck = "[data-queue=deployments] [data-field=dead-letter-list] tr[data-item='acme.stuck']";
		String poison = "[data-queue=deployments] [data-field=dead-letter-list] tr[data-item='acme.poison']";
		await().ignoreExceptions().atMost(Duration.ofSeconds(10)).until(() -> !browser.findAll(poison).isEmpty());
		browser.find(stuck + " [data-action=requeue-dead-letter]").click();
		await().ignoreExceptions().atMost(Duration.ofSeconds(10)).until(() -> browser.findAll(stuck).isEmpty());
		assertThat(browser.attribute("[data-queue=deployments] [data-field=dead-letter-answer]", "textContent"))
			.as("the answer beside the list")
			.contains("Requeued acme.stuck in deployments");
		assertThat(browser.text("[data-queue=deployments] [data-field=depth]")).isEqualTo("1");

		browser.find("[data-queue=deployments] [data-action=resume]").click();
		for (int i = 0; i < 40; i++) {
			put(sample, "/api/deployments/" + ((i % 2 == 0) ? "acme" : "globex") + ".web-" + i, "{\"replicas\":2}");
		}
		await().ignoreExceptions()
			.atMost(Duration.ofSeconds(15))
			.until(() -> !browser.findAll("[data-queue=deployments] [data-field=lease-list] tr[data-item]").isEmpty()
					&& Integer.parseInt(
							browser.attribute("[data-queue=deployments] [data-chart=latency]", "data-samples")) >= 8);
		browser.screenshot(Path.of("target", "dashboard.png"));

		browser.find(poison + " [data-action=drop-dead-letter]").click();
		browser.acceptConfirmation();
		await().ignoreExceptions().atMost(Duration.ofSeconds(10)).until(() -> browser.findAll(poison).isEmpty());
		assertThat(((RedisQueue<?>) sample.getBean("deployments")).parked()).isEmpty();
		assertThat(browser.consoleErrors()).as("console errors").isEmpty();
	}

	/** Parks an item as Redis does after its lease expired too often. */
	private void park(String prefix, String item) throws InterruptedException {
		ParkedItems.park(RedisQueue.builder(RedisQueueConnection.of(TestRedis.client()), "deployments")
			.prefix(prefix)
			.fairness(new TenantFairness()), item);
	}

	@Test
	void aPauseEverywhereShouldHoldAnotherInstanceUntilResumedEverywhere() throws Exception {
		String prefix = "dashboard-" + UUID.randomUUID().toString().substring(0, 8);
		ConfigurableApplicationContext sample = start("--spring.profiles.active=redis",
				"--spring.data.redis.url=" + TestRedis.uri(), "--workqueue.defaults.key-prefix=" + prefix);
		RedisQueue<String> other = RedisQueue.builder(RedisQueueConnection.of(TestRedis.client()), "deployments")
			.prefix(prefix)
			.fairness(new TenantFairness())
			.build(ItemCodec.strings());
		try {
			browser.open(url(sample, PAGE));
			String state = "[data-queue=deployments] [data-field=state]";
			await().ignoreExceptions()
				.atMost(Duration.ofSeconds(15))
				.until(() -> browser.text(state).equals("running"));
			browser.find("[data-queue=deployments] [data-action=pause-everywhere]").click();
			browser.acceptConfirmation();
			await().ignoreExceptions()
				.atMost(Duration.ofSeconds(10))
				.until(() -> browser.text(state).equals("paused everywhere"));
			assertThat(browser.text("[data-queue=deployments] [data-field=paused-by]"))
				.contains("anonymous through the workqueues endpoint");
			// Both instances (the sample's and the other) say so in the instances list.
			await().ignoreExceptions()
				.atMost(Duration.ofSeconds(10))
				.until(() -> browser.findAll("[data-queue=deployments] [data-field=instance-workers]")
					.stream()
					.map((cell) -> cell.getAttribute("textContent"))
					.toList(), (cells) -> cells.size() >= 2 && cells.stream().allMatch("paused everywhere"::equals));
			other.add("acme.held");
			assertThat(other.get(Duration.ofMillis(500))).as("another instance takes nothing").isEmpty();
			await().ignoreExceptions()
				.atMost(Duration.ofSeconds(10))
				.until(() -> browser.text("[data-queue=deployments] [data-field=depth]").equals("1"));
			browser.screenshot(Path.of("target", "dashboard-paused-everywhere.png"));
			browser.find("[data-queue=deployments] [data-action=resume-everywhere]").click();
			await().ignoreExceptions()
				.atMost(Duration.ofSeconds(10))
				.until(() -> browser.text(state).equals("running"));
			await().atMost(Duration.ofSeconds(10)).until(() -> other.len() == 0 && other.inFlight().isEmpty());
			assertThat(other.pausedEverywhere()).isEmpty();
			assertThat(browser.consoleErrors()).as("console errors").isEmpty();
		}
		finally {
			other.shutDown();
		}
	}

	@Test
	void aStuckItemAndTheOldestReadyItemShouldShowAndOlderDeadLettersBePaged() throws Exception {
		// Each reconcile takes 3 s against a stuck threshold of 1 s; 4 workers leave
		// the other keys ready, waiting.
		ConfigurableApplicationContext sample = start("--sample.downstream.latency=3s",
				"--workqueue.health.stuck-threshold=1s");
		@SuppressWarnings("unchecked")
		DeadLetters<Object> audit = (DeadLetters<Object>) sample.getBean(QueueWorkerRegistry.class)
			.getContainer("audit")
			.deadLetters();
		for (int i = 0; i < 150; i++) {
			audit.deadLetter("letter-" + i, "gave up: not retryable", 1, null);
		}
		browser.open(url(sample, PAGE));
		for (int i = 0; i < 10; i++) {
			put(sample, "/api/deployments/slow-" + i, "{\"replicas\":1}");
		}
		String deployments = "[data-queue=deployments] ";
		await().ignoreExceptions()
			.atMost(Duration.ofSeconds(15))
			.until(() -> browser.text(deployments + "[data-field=health]").equals("stuck item"));
		await().ignoreExceptions()
			.atMost(Duration.ofSeconds(15))
			.until(() -> browser.text(deployments + "[data-field=oldestReady]").matches("[1-9][0-9.]* s"));
		assertThat(browser.attribute("section.queue[data-queue=deployments]", "data-health")).isEqualTo("trouble");
		assertThat(Integer.parseInt(browser.attribute(deployments + "[data-chart=oldest]", "data-samples")))
			.isPositive();
		assertThat(browser.text(deployments + "[data-series=oldestReadySeconds] b")).endsWith(" s");
		browser.screenshot(Path.of("target", "dashboard-stuck-item.png"));

		String list = "[data-queue=audit] [data-field=dead-letter-list]";
		await().ignoreExceptions()
			.atMost(Duration.ofSeconds(10))
			.until(() -> browser.text(list + " [data-field=dead-letter-pager]").startsWith("1–100 of 150"));
		assertThat(browser.findAll(list + " tr[data-item]")).hasSize(100);
		browser.find(list + " [data-action=older-dead-letters]").click();
		await().ignoreExceptions()
			.atMost(Duration.ofSeconds(10))
			.until(() -> browser.text(list + " [data-field=dead-letter-pager]").startsWith("101–150 of 150"));
		assertThat(browser.findAll(list + " tr[data-item]")).hasSize(50)
			.first()
			.satisfies((row) -> assertThat(row.getAttribute("data-item")).isEqualTo("letter-49"));
		assertThat(browser.findAll("[data-queue=audit] [data-action=drop-all-dead-letters]"))
			.as("the bulk actions act on the newest page only")
			.isEmpty();
		browser.find(list + " [data-action=newer-dead-letters]").click();
		await().ignoreExceptions()
			.atMost(Duration.ofSeconds(10))
			.until(() -> browser.text(list + " [data-field=dead-letter-pager]").startsWith("1–100 of 150"));
		assertThat(browser.consoleErrors()).as("console errors").isEmpty();
	}

	@Test
	void givenUpItemsShouldBeListedAsDeadLettersToRequeueOrDropInBulk() throws Exception {
		ConfigurableApplicationContext sample = start();
		browser.open(url(sample, PAGE));
		for (String key : List.of("poison-a", "poison-b")) {
			put(sample, "/api/deployments/" + key, "{\"replicas\":1}");
		}
		String list = "[data-queue=audit] [data-field=dead-letter-list]";
		await().ignoreExceptions()
			.atMost(Duration.ofSeconds(30))
			.until(() -> browser.findAll(list + " tr[data-item]").size() == 2);
		String first = list + " tr[data-item='poison-a']";
		assertThat(browser.text(first)).contains("gave up after max-retries", "4",
				"DownstreamException: downstream rejects poison-a");
		assertThat(browser.text("[data-queue=audit] [data-field=deadLetters]")).isEqualTo("2");
		assertThat(browser.text("[data-queue=audit] [data-field=health]")).as("dead letters are not healthy")
			.isIn("dead letters growing", "2 dead letters");
		assertThat(browser.attribute("[data-queue=audit] [data-field=health]", "data-health")).isNotEqualTo("healthy");
		assertThat(browser.text("[data-queue=audit] [data-section=dead-letters] summary")).contains("(2)");
		String search = "[data-queue=audit] [data-field=dead-letter-search]";
		String summary = "[data-queue=audit] [data-section=dead-letters] summary";
		browser.find(search).sendKeys("POISON-B");
		await().ignoreExceptions()
			.atMost(Duration.ofSeconds(5))
			.until(() -> browser.findAll(list + " tr[data-item]").size() == 1
					&& browser.find(list + " tr[data-item='poison-b']").isDisplayed());
		assertThat(browser.text(summary)).as("the server's count of the matches").contains("(1 matching “POISON-B”)");
		browser.screenshot(Path.of("target", "dashboard-dead-letters.png"));
		browser.find(search).sendKeys("-nothing");
		await().ignoreExceptions()
			.atMost(Duration.ofSeconds(5))
			.until(() -> browser.text(list).equals("No dead letter matches “POISON-B-nothing”."));

		// The bulk drop with a search drops what matches, and nothing else.
		clear(search);
		browser.find(search).sendKeys("poison-b");
		await().ignoreExceptions()
			.atMost(Duration.ofSeconds(5))
			.until(() -> browser.text("[data-queue=audit] [data-action=drop-all-dead-letters]")
				.equals("Drop the 1 matching"));
		browser.find("[data-queue=audit] [data-action=drop-all-dead-letters]").click();
		assertThat(browser.acceptConfirmationSaying())
			.isEqualTo("Drop the 1 dead letter of audit matching “poison-b” for good?");
		await().ignoreExceptions()
			.atMost(Duration.ofSeconds(10))
			.until(() -> browser.text(list).equals("No dead letter matches “poison-b”."));
		AuditNotifier audit = sample.getBean(AuditNotifier.class);
		QueueWorkerContainer auditWorkers = sample.getBean(QueueWorkerRegistry.class).getContainer("audit");
		assertThat(auditWorkers.deadLetters().deadLetters()).extracting(DeadLetter::item).containsExactly("poison-a");
		clear(search);
		await().ignoreExceptions().atMost(Duration.ofSeconds(5)).until(() -> browser.find(first).isDisplayed());

		// Requeued, it runs again (and, still rejected, is given up again).
		browser.find(first + " [data-action=requeue-dead-letter]").click();
		await().atMost(Duration.ofSeconds(30))
			.until(() -> audit.deadLetters().stream().filter("audit:poison-a"::equals).count() == 2);
		await().ignoreExceptions()
			.atMost(Duration.ofSeconds(30))
			.until(() -> browser.findAll(list + " tr[data-item]").size() == 1);

		// With live refresh off, a dead letter that came since is not dropped unseen: the
		// server refuses the drop of "all 1", and nothing is dropped.
		browser.find("#live").click();
		put(sample, "/api/deployments/poison-c", "{\"replicas\":1}");
		await().atMost(Duration.ofSeconds(30)).until(() -> auditWorkers.deadLetters().deadLetters().size() == 2);
		assertThat(browser.text("[data-queue=audit] [data-action=drop-all-dead-letters]")).isEqualTo("Drop all 1");
		browser.find("[data-queue=audit] [data-action=drop-all-dead-letters]").click();
		assertThat(browser.acceptConfirmationSaying()).isEqualTo("Drop the 1 dead letter of audit for good?");
		String answer = "[data-queue=audit] [data-field=dead-letter-answer]";
		await().ignoreExceptions()
			.atMost(Duration.ofSeconds(10))
			.until(() -> browser.text(answer).contains("Nothing was changed"));
		assertThat(browser.text(answer)).as("the refusal beside the list it acted on")
			.contains("you confirmed 1 dead letter(s) of queue 'audit' (all of them)",
					"2 match now, the newest poison-c");
		assertThat(browser.find("#message").isDisplayed()).as("not at the page's top").isFalse();
		assertThat(auditWorkers.deadLetters().deadLetters()).as("nothing dropped").hasSize(2);
		assertThat(browser.attribute(answer, "data-kind")).as("an error stays").isEqualTo("error");
		assertThat(browser.consoleErrors()).as("the refusal, and nothing else")
			.singleElement()
			.satisfies((error) -> assertThat(error).contains("/actuator/workqueues/audit", "400"));
		browser.screenshot(Path.of("target", "dashboard-bulk-refused.png"));

		browser.find("#live").click();
		await().ignoreExceptions()
			.atMost(Duration.ofSeconds(10))
			.until(() -> browser.findAll(list + " tr[data-item]").size() == 2);

		// One dead letter the operator saw swapped for one they never saw, the count
		// unchanged: still refused, naming the newest.
		browser.find("#live").click();
		@SuppressWarnings("unchecked")
		DeadLetters<Object> letters = (DeadLetters<Object>) auditWorkers.deadLetters();
		assertThat(letters.dropDeadLetter("poison-a")).isTrue();
		letters.deadLetter("swapped-in", "gave up after max-retries", 4, null);
		browser.find("[data-queue=audit] [data-action=drop-all-dead-letters]").click();
		assertThat(browser.acceptConfirmationSaying()).isEqualTo("Drop the 2 dead letters of audit for good?");
		await().ignoreExceptions()
			.atMost(Duration.ofSeconds(10))
			.until(() -> browser.text(answer).contains("the newest swapped-in"));
		assertThat(letters.deadLetters()).extracting(DeadLetter::item)
			.as("nothing dropped")
			.containsExactlyInAnyOrder("poison-c", "swapped-in");
		browser.screenshot(Path.of("target", "dashboard-bulk-refused-swap.png"));
		browser.consoleErrors();
		browser.find("#live").click();
		await().ignoreExceptions()
			.atMost(Duration.ofSeconds(10))
			.until(() -> browser.findAll(list + " tr[data-item='swapped-in']").size() == 1);
		browser.find("[data-queue=audit] [data-action=drop-all-dead-letters]").click();
		assertThat(browser.acceptConfirmationSaying()).isEqualTo("Drop the 2 dead letters of audit for good?");
		await().ignoreExceptions()
			.atMost(Duration.ofSeconds(10))
			.until(() -> browser.findAll(list + " tr[data-item]").isEmpty());
		assertThat(auditWorkers.deadLetters().deadLetters()).isEmpty();
		await().atMost(Duration.ofSeconds(30))
			.until(() -> browser.attribute(answer, "data-kind").equals("ok") && !browser.find(answer).isDisplayed());
		assertThat(browser.consoleErrors()).as("console errors").isEmpty();
	}

	private static void clear(String css) {
		browser.find(css).sendKeys(Keys.chord(Keys.CONTROL, "a"), Keys.BACK_SPACE);
	}

	@Test
	void theLeaseOfAnInstanceThatStoppedRenewingShouldSayHowLongAgoItExpired() throws Exception {
		String prefix = "dashboard-" + UUID.randomUUID().toString().substring(0, 8);
		ConfigurableApplicationContext sample = start("--spring.profiles.active=redis",
				"--spring.data.redis.url=" + TestRedis.uri(), "--workqueue.defaults.key-prefix=" + prefix);
		QueueWorkerContainer deployments = sample.getBean(QueueWorkerRegistry.class).getContainer("deployments");
		// Paused, the sample takes nothing, and so does not redeliver the expired item.
		deployments.pause();
		await().atMost(Duration.ofSeconds(10)).until(() -> deployments.inFlight() == 0);
		RedisClient client = RedisClient.create(TestRedis.uri());
		try {
			RedisQueueConnection connection = RedisQueueConnection.of(client);
			RedisQueue<String> other = RedisQueue.builder(connection, "deployments")
				.prefix(prefix)
				.fairness(new TenantFairness())
				.holder("stopped-instance")
				.leaseDuration(Duration.ofSeconds(1))
				.build(ItemCodec.strings());
			other.add("acme.abandoned");
			assertThat(other.get(Duration.ofSeconds(5))).contains("acme.abandoned");
			await().atMost(Duration.ofSeconds(10))
				.until(() -> other.instances()
					.stream()
					.anyMatch((instance) -> instance.holder().equals("stopped-instance")));
			// No more renewals or heartbeats, and no give-back, as from a killed
			// instance.
			connection.close();
			browser.open(url(sample, PAGE));
			String row = "[data-queue=deployments] [data-field=lease-list] tr[data-item='acme.abandoned']";
			await().ignoreExceptions()
				.atMost(Duration.ofSeconds(15))
				.until(() -> browser.text(row).contains("awaiting redelivery"));
			assertThat(browser.text(row)).contains("stopped-instance")
				.containsPattern("expired [0-9.]+ (s|ms) ago")
				.doesNotContainPattern("[0-9] ns")
				.doesNotContain("−");
			// Its heartbeat stopped too: the instances list and the lease say it is not
			// seen.
			await().ignoreExceptions()
				.atMost(Duration.ofSeconds(15))
				.until(() -> browser.text(row).contains("not seen for"));
			assertThat(browser
				.text("[data-queue=deployments] [data-field=instance-list] tr[data-instance='stopped-instance']"))
				.contains("not seen");
			browser.screenshot(Path.of("target", "dashboard-expired-lease.png"));
			assertThat(browser.consoleErrors()).as("console errors").isEmpty();
		}
		finally {
			client.shutdown();
		}
	}

	@Test
	void aRedisOutageShouldShowStaleFiguresAnswerWithinBoundsAndRecover() throws Exception {
		int port = TestRedis.freePort();
		RedisServer server = TestRedis.startServer(port);
		try {
			ConfigurableApplicationContext sample = start("--spring.profiles.active=redis",
					"--spring.data.redis.url=redis://127.0.0.1:" + port, "--spring.data.redis.timeout=2s");
			browser.open(url(sample, PAGE));
			String state = "[data-queue=deployments] [data-field=state]";
			String pause = "[data-queue=deployments] [data-action=pause]";
			await().ignoreExceptions()
				.atMost(Duration.ofSeconds(15))
				.until(() -> browser.text(state).equals("running"));

			server.stop();
			long stopped = System.nanoTime();
			long start = System.nanoTime();
			HttpResponse<String> queues = get(sample, "/actuator/workqueues");
			Duration endpoint = Duration.ofNanos(System.nanoTime() - start);
			start = System.nanoTime();
			HttpResponse<String> health = get(sample, "/actuator/health");
			Duration healthCheck = Duration.ofNanos(System.nanoTime() - start);
			System.out.println("Redis stopped: the endpoint answered in " + endpoint.toMillis()
					+ " ms, the health check in " + healthCheck.toMillis() + " ms");
			assertThat(queues.statusCode()).isEqualTo(200);
			assertThat(health.statusCode()).isEqualTo(503);
			// Two seconds each at most, and some slack for a busy machine.
			assertThat(endpoint).isLessThan(Duration.ofSeconds(4));
			assertThat(healthCheck).isLessThan(Duration.ofSeconds(4));
			await().ignoreExceptions()
				.atMost(Duration.ofSeconds(15))
				.until(() -> browser.text(state).equals("Redis unreachable"));
			assertThat(browser.text("[data-queue=deployments] [data-field=health]"))
				.as("the outage named once, by the state badge")
				.isEqualTo("trouble");
			assertThat(browser.text("[data-queue=deployments] [data-field=stale]")).contains("stale since");
			assertThat(browser.find(pause).isEnabled()).as("actions disabled while stale").isFalse();
			browser.screenshot(Path.of("target", "dashboard-redis-unreachable.png"));

			// An outage long enough for every retry's backoff to reach its longest.
			long outage = System.nanoTime() - stopped;
			Thread.sleep(Math.max(0, Duration.ofSeconds(6).minusNanos(outage).toMillis()));
			server = TestRedis.startServer(port);
			long restarted = System.nanoTime();
			await().ignoreExceptions()
				.atMost(Duration.ofSeconds(30))
				.pollInterval(Duration.ofMillis(50))
				.until(() -> browser.text(state).equals("running"));
			Duration recovered = Duration.ofNanos(System.nanoTime() - restarted);
			System.out.println("Redis started again: the page showed the queue running after " + recovered.toMillis()
					+ " ms (it reads the endpoint every 500 ms here)");
			// The queue's connection is back at once, its retries are half a second
			// apart at most by now, and the page's next read shows it: about a second,
			// with slack for a busy machine.
			assertThat(recovered).isLessThan(Duration.ofSeconds(3));
			assertThat(browser.find(pause).isEnabled()).isTrue();
			assertThat(browser.text("[data-queue=deployments] [data-field=stale]")).isEmpty();
		}
		finally {
			server.stop();
		}
	}

	@Test
	void anApplicationThatStopsAnsweringShouldShowNoGreenBadgeButSinceWhenItIsSilent() throws Exception {
		ConfigurableApplicationContext sample = start();
		browser.open(url(sample, PAGE));
		String deployments = "[data-queue=deployments] ";
		await().ignoreExceptions()
			.atMost(Duration.ofSeconds(15))
			.until(() -> browser.text(deployments + "[data-field=state]").equals("running"));

		sample.close();
		await().ignoreExceptions()
			.atMost(Duration.ofSeconds(20))
			.until(() -> browser.text(deployments + "[data-field=state]").equals("no answer"));
		assertThat(browser.text(deployments + "[data-field=health]")).isEqualTo("unknown");
		assertThat(browser.text(deployments + "[data-field=stale]")).startsWith("no answer since ");
		assertThat(browser.findAll("[data-state=running], [data-health=healthy]")).as("green badges").isEmpty();
		assertThat(browser.find(deployments + "[data-action=pause]").isEnabled()).isFalse();
		browser.screenshot(Path.of("target", "dashboard-no-answer.png"));
		browser.consoleErrors();
	}

	@Test
	void readOnlyAccessShouldShowNoWriteButtonsAndRefuseWrites() throws Exception {
		ConfigurableApplicationContext sample = start("--management.endpoint.workqueues.access=read-only");
		browser.open(url(sample, PAGE));
		await().ignoreExceptions()
			.atMost(Duration.ofSeconds(15))
			.until(() -> browser.text("[data-queue=deployments] [data-field=state]").equals("running"));
		assertThat(browser.find("#read-only").isDisplayed()).isTrue();
		assertThat(browser.findAll("[data-queue=deployments] button").stream().filter((button) -> button.isDisplayed()))
			.as("write buttons shown")
			.isEmpty();
		HttpResponse<String> refused = this.samples.post(sample, "/actuator/workqueues/deployments",
				"{\"action\":\"pause\"}");
		assertThat(refused.statusCode()).isEqualTo(405);
		assertThat(sample.getBean(QueueWorkerRegistry.class).getContainer("deployments").isPaused()).isFalse();
		browser.screenshot(Path.of("target", "dashboard-read-only.png"));
		assertThat(browser.consoleErrors()).as("console errors").isEmpty();
	}

	private ConfigurableApplicationContext start(String... arguments) {
		return this.samples.start(arguments);
	}

	private static String url(ConfigurableApplicationContext context, String path) {
		return SampleApplications.url(context, path);
	}

	private HttpResponse<String> get(ConfigurableApplicationContext context, String path) throws Exception {
		return this.samples.get(context, path);
	}

	private void put(ConfigurableApplicationContext context, String path, String json) throws Exception {
		this.samples.put(context, path, json);
	}

}
