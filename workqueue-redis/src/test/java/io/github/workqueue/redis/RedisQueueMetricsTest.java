package io.github.workqueue.redis;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;

import io.github.workqueue.core.AddOptions;
import io.github.workqueue.core.metrics.CounterMetric;
import io.github.workqueue.core.metrics.GaugeMetric;
import io.github.workqueue.core.metrics.HistogramMetric;
import io.github.workqueue.core.metrics.MetricsProvider;
import io.github.workqueue.core.metrics.SettableGaugeMetric;
import io.github.workqueue.core.metrics.SharedFigure;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * client-go's metrics per instance, and the queue-wide figures read from Redis.
 */
class RedisQueueMetricsTest {

	private final Map<String, AtomicLong> counts = new ConcurrentHashMap<>();

	private final Map<String, Double> gauges = new ConcurrentHashMap<>();

	@Test
	void anInstanceShouldCountItsOwnAddsAndReportQueueWideFigures() throws InterruptedException {
		String name = TestRedis.uniqueName("metrics");
		RedisQueue<String> a = measured(name).build(ItemCodec.strings());
		RedisQueue<String> b = unmeasured(name);
		a.add("x");
		a.add("x");
		b.add("y");
		b.add("z");
		b.addAfter("later", Duration.ofHours(1));
		assertThat(a.get(Duration.ofSeconds(5))).contains("x");
		a.done("x");
		assertThat(this.counts.get("adds").get()).as("a's own adds that were not duplicates").isEqualTo(1);
		assertThat(this.counts.get("latency").get()).isEqualTo(1);
		assertThat(this.counts.get("work").get()).isEqualTo(1);
		assertThat(b.get(Duration.ofSeconds(5))).contains("y");
		await().atMost(Duration.ofSeconds(10)).untilAsserted(() -> {
			assertThat(this.gauges.get(SharedFigure.DEPTH.name())).isEqualTo(1.0);
			assertThat(this.gauges.get(SharedFigure.WAITING.name())).isEqualTo(1.0);
			assertThat(this.gauges.get(SharedFigure.IN_FLIGHT.name())).as("b's item").isEqualTo(1.0);
			assertThat(this.gauges.get(SharedFigure.REDELIVERIES.name())).isZero();
		});
		a.shutDown();
		b.shutDown();
	}

	@Test
	void addAllShouldCountTheAddsThatMadeAnItemDirty() {
		String name = TestRedis.uniqueName("metrics");
		RedisQueue<String> a = measured(name).build(ItemCodec.strings());
		a.add("x");
		a.addAll(List.of("x", "y", "y", "z"));
		assertThat(this.counts.get("adds").get()).as("x, then y and z").isEqualTo(3);
		a.shutDown();
	}

	@Test
	void theQueueWideDepthShouldBeReportedPerPriority() throws InterruptedException {
		String name = TestRedis.uniqueName("metrics");
		RedisQueue<String> a = measured(name).defaultPriority(1).build(ItemCodec.strings());
		RedisQueue<String> b = unmeasured(name);
		assertThat(this.gauges).as("the default priority's gauge, made at start").containsKey("depth 1");
		b.add("low", AddOptions.priority(-5));
		b.add("high", AddOptions.priority(10));
		b.add("also high", AddOptions.priority(10));
		await().atMost(Duration.ofSeconds(10)).untilAsserted(() -> {
			assertThat(this.gauges.get("depth 10")).isEqualTo(2.0);
			assertThat(this.gauges.get("depth -5")).isEqualTo(1.0);
			assertThat(this.gauges.get("depth 1")).isZero();
		});
		for (int i = 0; i < 2; i++) {
			String item = b.get(Duration.ofSeconds(5)).orElseThrow();
			b.done(item);
		}
		await().atMost(Duration.ofSeconds(10)).untilAsserted(() -> {
			assertThat(this.gauges.get("depth 10")).as("a priority left without ready items").isZero();
			assertThat(this.gauges.get("depth -5")).isEqualTo(1.0);
		});
		a.shutDown();
		b.shutDown();
	}

	@Test
	void everyReadOfTheStatsShouldSetTheDeadLetterGaugeNotOnlyTheLeaseRenewers() {
		String name = TestRedis.uniqueName("metrics");
		// A lease renewed (and the figures read) every 10 minutes: only reads set them.
		RedisQueue<String> a = measured(name).leaseDuration(Duration.ofMinutes(30)).build(ItemCodec.strings());
		a.deadLetter("gone", "gave up", 3, null);
		a.deadLetter("also gone", "gave up", 3, null);
		assertThat(a.stats().deadLetters()).isEqualTo(2);
		assertThat(this.gauges.get(SharedFigure.DEAD_LETTERS.name())).isEqualTo(2.0);
		assertThat(a.dropDeadLetter(a.deadLetters().get(0).item())).isTrue();
		assertThat(a.deadLetterCount()).isEqualTo(1);
		assertThat(this.gauges.get(SharedFigure.DEAD_LETTERS.name())).as("the read after the drop").isEqualTo(1.0);
		a.shutDown();
	}

	/**
	 * Instance a, recording its metrics, with a short lease: the shared figures are read
	 * every 100 ms.
	 */
	private RedisQueueBuilder measured(String name) {
		return RedisQueue.builder(RedisQueueConnection.of(TestRedis.client()), name)
			.holder("a")
			.leaseDuration(Duration.ofMillis(300))
			.metricsProvider(new Recording());
	}

	/** Instance b, without metrics. */
	private static RedisQueue<String> unmeasured(String name) {
		return RedisQueue.builder(RedisQueueConnection.of(TestRedis.client()), name)
			.holder("b")
			.build(ItemCodec.strings());
	}

	private final class Recording implements MetricsProvider {

		private CounterMetric counter(String key) {
			AtomicLong count = RedisQueueMetricsTest.this.counts.computeIfAbsent(key, (k) -> new AtomicLong());
			return count::addAndGet;
		}

		private HistogramMetric histogram(String key) {
			CounterMetric count = counter(key);
			return (value) -> count.inc();
		}

		private SettableGaugeMetric gauge(String key) {
			return (value) -> RedisQueueMetricsTest.this.gauges.put(key, value);
		}

		@Override
		public GaugeMetric newDepthMetric(String name) {
			throw new AssertionError("a shared queue has no per-instance depth");
		}

		@Override
		public CounterMetric newAddsMetric(String name) {
			return counter("adds");
		}

		@Override
		public HistogramMetric newLatencyMetric(String name) {
			return histogram("latency");
		}

		@Override
		public HistogramMetric newWorkDurationMetric(String name) {
			return histogram("work");
		}

		@Override
		public SettableGaugeMetric newUnfinishedWorkSecondsMetric(String name) {
			return gauge("unfinished");
		}

		@Override
		public SettableGaugeMetric newLongestRunningProcessorSecondsMetric(String name) {
			return gauge("longest");
		}

		@Override
		public CounterMetric newRetriesMetric(String name) {
			return counter("retries");
		}

		@Override
		public SettableGaugeMetric newSharedMetric(String name, SharedFigure figure) {
			return gauge(figure.name());
		}

		@Override
		public SettableGaugeMetric newSharedDepthMetric(String name, int priority) {
			RedisQueueMetricsTest.this.gauges.putIfAbsent("depth " + priority, 0.0);
			return gauge("depth " + priority);
		}

	}

}
