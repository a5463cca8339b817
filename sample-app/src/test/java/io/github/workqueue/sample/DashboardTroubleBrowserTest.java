package io.github.workqueue.sample;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.UUID;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import org.springframework.context.ConfigurableApplicationContext;

import io.github.workqueue.core.DeadLetters;
import io.github.workqueue.redis.TestRedis;
import io.github.workqueue.spring.QueueWorkerRegistry;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * The dashboard's troubles and answers in a real browser (headless Chromium): ready keys
 * that wait too long mark the card, a quantile above the top bucket is drawn as an open
 * band, a read error clears at the next read that works, page 2 of the dead letters says
 * why the bulk actions are on page 1, and at 420 px nothing scrolls sideways and no key
 * breaks inside a token. Skipped, saying so, where the machine has no Chromium.
 */
class DashboardTroubleBrowserTest {

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
		browser.open("about:blank");
		browser.consoleErrors();
	}

	@AfterEach
	void stopApplications() {
		browser.windowWidth(1280);
		browser.open("about:blank");
		this.samples.stopAll();
	}

	@Test
	void readyKeysThatWaitPastTheThresholdShouldMarkTheCardEvenWhenTheBacklogDoesNotGrow() throws Exception {
		// Four workers, each reconcile 2 s: of 20 keys, most wait for seconds while the
		// backlog only shrinks.
		ConfigurableApplicationContext sample = this.samples.start("--workqueue.dashboard.wait-threshold=1s",
				"--sample.downstream.latency=2s");
		browser.open(SampleApplications.url(sample, PAGE));
		String deployments = "[data-queue=deployments] ";
		await().ignoreExceptions()
			.atMost(Duration.ofSeconds(15))
			.until(() -> browser.text(deployments + "[data-field=state]").equals("running"));
		for (int i = 0; i < 20; i++) {
			this.samples.put(sample, "/api/deployments/acme.slow-" + i, "{\"replicas\":1}");
		}
		await().ignoreExceptions()
			.atMost(Duration.ofSeconds(20))
			.until(() -> browser.text(deployments + "[data-field=health]").startsWith("oldest ready waited ")
					&& Integer.parseInt(browser.text(deployments + "[data-field=depth]")) > 0);
		assertThat(browser.attribute("section.queue[data-queue=deployments]", "data-health")).isEqualTo("trouble");
		browser.screenshot(Path.of("target", "dashboard-waiting-too-long.png"));
		assertThat(browser.consoleErrors()).as("console errors").isEmpty();
	}

	@Test
	void aQuantileAboveTheTopBucketShouldBeDrawnAsAnOpenBandNeverAsALineAtTheBound() throws Exception {
		ConfigurableApplicationContext sample = this.samples.start();
		browser.open(SampleApplications.url(sample, PAGE));
		await().ignoreExceptions()
			.atMost(Duration.ofSeconds(15))
			.until(() -> browser.text("[data-queue=deployments] [data-field=state]").equals("running"));
		@SuppressWarnings("unchecked")
		List<Object> drawn = (List<Object>) browser
			.script("""
					const { chart, draw } = window.workqueueCharts;
					const series = [{ key: 'p99', label: 'p99', color: '#c026d3' }];
					const figure = chart('Saturated', 'saturated', series);
					figure.id = 'saturated-chart';
					document.querySelector('main').prepend(figure);
					const now = Date.now();
					const known = { value: 0.5, lower: 0.25, upper: 1 };
					const above = { value: 10, lower: 10, upper: null };
					draw(figure.querySelector('svg'), [{ time: now - 2000, p99: known }, { time: now - 1500, p99: known },
						{ time: now - 1000, p99: above }, { time: now - 500, p99: above }], series, 'seconds');
					return [figure.querySelectorAll('rect.saturated').length,
						Array.from(figure.querySelectorAll('text.axis')).map((text) => text.textContent).join('|'),
						figure.querySelector('path.series').getAttribute('d'),
						figure.querySelector('.legend b').textContent,
						Array.from(figure.querySelectorAll('rect.saturated')).map((band) => band.getAttribute('y')).join('|')];
					""");
		assertThat(((Number) drawn.get(0)).intValue()).as("one band per saturated sample").isEqualTo(2);
		assertThat((String) drawn.get(1)).as("the top of the axis is open-ended").contains("> 10 s");
		assertThat(((String) drawn.get(2)).split("M")).as("the line joins the known samples only")
			.filteredOn((part) -> !part.isBlank())
			.hasSize(1);
		assertThat((String) drawn.get(3)).isEqualTo("> 10 s");
		assertThat((String) drawn.get(4)).as("each band reaches the top of the plot").isEqualTo("10.0|10.0");
		browser.find("#saturated-chart").isDisplayed();
		browser.screenshot(Path.of("target", "dashboard-saturated-quantile.png"));
		assertThat(browser.consoleErrors()).as("console errors").isEmpty();
	}

	@Test
	void aReadErrorShouldClearAtTheNextReadThatWorks() throws Exception {
		ConfigurableApplicationContext sample = this.samples.start();
		browser.open(SampleApplications.url(sample, PAGE));
		await().ignoreExceptions()
			.atMost(Duration.ofSeconds(15))
			.until(() -> browser.text("[data-queue=deployments] [data-field=state]").equals("running"));
		// The next read fails as a network error would; the one after works.
		browser.script("""
				const real = window.fetch;
				window.fetch = () => {
					window.fetch = real;
					return Promise.reject(new TypeError('the network is down'));
				};
				""");
		await().ignoreExceptions()
			.atMost(Duration.ofSeconds(10))
			.until(() -> browser.text("#message").contains("Could not reach the application: the network is down"));
		await().ignoreExceptions().atMost(Duration.ofSeconds(10)).until(() -> !browser.find("#message").isDisplayed());
		assertThat(browser.text("[data-queue=deployments] [data-field=state]")).isEqualTo("running");
		browser.consoleErrors();
	}

	@Test
	void page2OfTheDeadLettersShouldSayWhyTheBulkActionsAreOnPage1() throws Exception {
		ConfigurableApplicationContext sample = this.samples.start();
		@SuppressWarnings("unchecked")
		DeadLetters<Object> audit = (DeadLetters<Object>) sample.getBean(QueueWorkerRegistry.class)
			.getContainer("audit")
			.deadLetters();
		for (int i = 0; i < 120; i++) {
			audit.deadLetter("letter-" + i, "gave up: not retryable", 1, null);
		}
		browser.open(SampleApplications.url(sample, PAGE));
		String list = "[data-queue=audit] [data-field=dead-letter-list]";
		await().ignoreExceptions()
			.atMost(Duration.ofSeconds(10))
			.until(() -> browser.text(list + " [data-field=dead-letter-pager]").startsWith("1–100 of 120"));
		assertThat(browser.findAll(list + " [data-field=bulk-note]")).isEmpty();
		browser.find(list + " [data-action=older-dead-letters]").click();
		await().ignoreExceptions()
			.atMost(Duration.ofSeconds(10))
			.until(() -> browser.text(list + " [data-field=dead-letter-pager]").startsWith("101–120 of 120"));
		assertThat(browser.text(list + " [data-field=bulk-note]")).contains("on the first page");
		assertThat(browser.findAll(list + " [data-action=drop-all-dead-letters]")).isEmpty();
		browser.screenshot(Path.of("target", "dashboard-dead-letters-page-2.png"));
		assertThat(browser.consoleErrors()).as("console errors").isEmpty();
	}

	@Test
	void at420PixelsNothingShouldScrollSidewaysAndNoKeyBreakInsideAToken() throws Exception {
		String prefix = "narrow-" + UUID.randomUUID().toString().substring(0, 8);
		ConfigurableApplicationContext sample = this.samples.start("--spring.profiles.active=redis",
				"--spring.data.redis.url=" + TestRedis.uri(), "--workqueue.defaults.key-prefix=" + prefix,
				"--sample.downstream.latency=5s");
		@SuppressWarnings("unchecked")
		DeadLetters<Object> audit = (DeadLetters<Object>) sample.getBean(QueueWorkerRegistry.class)
			.getContainer("audit")
			.deadLetters();
		audit.deadLetter("beta-tenant.load-balancer-1436/eu-west-1.us-east-2.production", "gave up: not retryable", 4,
				new IllegalStateException("downstream rejects beta-tenant.load-balancer-1436"));
		audit.deadLetter("averyveryverylongtokenwithoutanyplacetobreakatall.x", "gave up: not retryable", 1, null);
		for (int i = 0; i < 6; i++) {
			this.samples.put(sample, "/api/deployments/beta.load-balancer-" + i, "{\"replicas\":1}");
		}
		browser.windowWidth(420);
		browser.open(SampleApplications.url(sample, PAGE));
		await().ignoreExceptions()
			.atMost(Duration.ofSeconds(15))
			.until(() -> browser.findAll("[data-queue=audit] [data-field=dead-letter-list] tr[data-item]").size() == 2
					&& !browser.findAll("[data-queue=deployments] [data-field=lease-list] tr[data-item]").isEmpty());
		assertThat(((Number) browser.script("return window.innerWidth;")).intValue()).isLessThanOrEqualTo(420);
		assertThat(((Number) browser.script("return document.documentElement.scrollWidth - window.innerWidth;"))
			.intValue()).as("pixels the page is wider than the window").isLessThanOrEqualTo(0);
		@SuppressWarnings("unchecked")
		List<String> brokenInside = (List<String>) browser.script("""
				const broken = [];
				for (const key of document.querySelectorAll('td.item .key')) {
					for (const node of key.childNodes) {
						if (node.nodeType !== Node.TEXT_NODE || !node.textContent) {
							continue;
						}
						const range = document.createRange();
						range.selectNodeContents(node);
						const lines = new Set(Array.from(range.getClientRects()).map((rect) => Math.round(rect.top)));
						if (lines.size > 1) {
							broken.push(node.textContent);
						}
					}
				}
				return broken;
				""");
		assertThat(brokenInside).as("tokens broken across lines").isEmpty();
		assertThat(browser.attribute(
				"[data-queue=audit] tr[data-item='averyveryverylongtokenwithoutanyplacetobreakatall.x'] .key", "title"))
			.as("the whole key on hover")
			.isEqualTo("averyveryverylongtokenwithoutanyplacetobreakatall.x");
		browser.screenshot(Path.of("target", "dashboard-420px.png"));
		assertThat(browser.consoleErrors()).as("console errors").isEmpty();
	}

}
