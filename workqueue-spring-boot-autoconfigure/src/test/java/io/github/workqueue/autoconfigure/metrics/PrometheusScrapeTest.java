package io.github.workqueue.autoconfigure.metrics;

import java.time.Duration;

import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import org.junit.jupiter.api.Test;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.FilteredClassLoader;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;

import io.github.workqueue.autoconfigure.WorkQueueAutoConfiguration;
import io.github.workqueue.core.Clock;
import io.github.workqueue.core.FakeClock;
import io.github.workqueue.core.RateLimitingQueue;
import io.github.workqueue.core.metrics.MetricsProvider;
import io.github.workqueue.core.metrics.SharedFigure;

import static org.assertj.core.api.Assertions.assertThat;

class PrometheusScrapeTest {

	private final ApplicationContextRunner runner = new ApplicationContextRunner()
		.withConfiguration(
				AutoConfigurations.of(WorkQueueMetricsAutoConfiguration.class, WorkQueueAutoConfiguration.class))
		.withBean(Clock.class, FakeClock::new)
		.withBean(PrometheusMeterRegistry.class, () -> new PrometheusMeterRegistry(PrometheusConfig.DEFAULT))
		.withPropertyValues("workqueue.queues.orders.workers=1");

	@Test
	void scrapeShouldUseClientGoNamesTypesAndLabels() {
		this.runner.run((context) -> {
			@SuppressWarnings("unchecked")
			RateLimitingQueue<Object> queue = context.getBean("orders", RateLimitingQueue.class);
			FakeClock clock = (FakeClock) context.getBean(Clock.class);
			queue.add("a");
			queue.add("b");
			clock.step(Duration.ofMillis(20));
			Object item = queue.get().orElseThrow();
			clock.step(Duration.ofMillis(480));
			queue.done(item);
			queue.addRateLimited("c");
			queue.shutDown();
			queue.add("late");
			String scrape = context.getBean(PrometheusMeterRegistry.class).scrape();

			assertThat(scrape).contains("# TYPE workqueue_depth gauge",
					"workqueue_depth{name=\"orders\",priority=\"0\"} 1.0");
			assertThat(scrape).contains("# TYPE workqueue_adds_total counter",
					"workqueue_adds_total{name=\"orders\"} 2.0");
			assertThat(scrape).contains("# TYPE workqueue_queue_duration_seconds histogram",
					"workqueue_queue_duration_seconds_bucket{name=\"orders\",le=\"1.0E-8\"} 0",
					"workqueue_queue_duration_seconds_bucket{name=\"orders\",le=\"0.1\"} 1",
					"workqueue_queue_duration_seconds_bucket{name=\"orders\",le=\"10.0\"} 1",
					"workqueue_queue_duration_seconds_bucket{name=\"orders\",le=\"+Inf\"} 1",
					"workqueue_queue_duration_seconds_count{name=\"orders\"} 1",
					"workqueue_queue_duration_seconds_sum{name=\"orders\"} 0.02");
			assertThat(scrape).contains("# TYPE workqueue_work_duration_seconds histogram",
					"workqueue_work_duration_seconds_bucket{name=\"orders\",le=\"1.0\"} 1",
					"workqueue_work_duration_seconds_sum{name=\"orders\"} 0.48");
			assertThat(scrape).contains("# TYPE workqueue_unfinished_work_seconds gauge",
					"workqueue_unfinished_work_seconds{name=\"orders\"} 0.48");
			assertThat(scrape).contains("# TYPE workqueue_longest_running_processor_seconds gauge",
					"workqueue_longest_running_processor_seconds{name=\"orders\"} 0.48");
			assertThat(scrape).as("b, added at 0 and still ready at 500 ms")
				.contains("# TYPE workqueue_oldest_ready_item_seconds gauge",
						"workqueue_oldest_ready_item_seconds{name=\"orders\"} 0.5");
			assertThat(scrape).contains("# TYPE workqueue_retries_total counter",
					"workqueue_retries_total{name=\"orders\"} 1.0");
			assertThat(scrape).contains("# TYPE workqueue_waiting gauge", "workqueue_waiting{name=\"orders\"} 0.0");
			assertThat(scrape).contains("# TYPE workqueue_dropped_total counter",
					"workqueue_dropped_total{name=\"orders\",reason=\"waiting_at_shutdown\"} 1.0",
					"workqueue_dropped_total{name=\"orders\",reason=\"add_after_shutdown\"} 1.0");
			long bucketLines = scrape.lines()
				.filter((line) -> line.startsWith("workqueue_queue_duration_seconds_bucket{"))
				.count();
			assertThat(bucketLines).as("client-go's 10 buckets plus +Inf").isEqualTo(11);
		});
	}

	@Test
	void aSharedQueuesDepthShouldBeScrapedPerPriority() {
		PrometheusMeterRegistry registry = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
		MicrometerMetricsProvider provider = new MicrometerMetricsProvider(registry);
		for (SharedFigure figure : SharedFigure.values()) {
			provider.newSharedMetric("orders", figure).set(7);
		}
		provider.newSharedDepthMetric("orders", 0).set(3);
		provider.newSharedDepthMetric("orders", 10).set(4);
		String scrape = registry.scrape();

		assertThat(scrape).contains("# TYPE workqueue_shared_depth gauge",
				"workqueue_shared_depth{name=\"orders\",priority=\"0\"} 3.0",
				"workqueue_shared_depth{name=\"orders\",priority=\"10\"} 4.0");
		assertThat(scrape).as("the sum, which the priorities give")
			.doesNotContain("workqueue_shared_depth{name=\"orders\"}");
		assertThat(scrape).contains("workqueue_shared_waiting{name=\"orders\"} 7.0",
				"workqueue_shared_in_flight{name=\"orders\"} 7.0", "workqueue_shared_parked{name=\"orders\"} 7.0",
				"workqueue_shared_redeliveries{name=\"orders\"} 7.0");
	}

	@Test
	void withoutMicrometerQueuesShouldStillWork() {
		new ApplicationContextRunner()
			.withConfiguration(
					AutoConfigurations.of(WorkQueueMetricsAutoConfiguration.class, WorkQueueAutoConfiguration.class))
			.withClassLoader(new FilteredClassLoader(MeterRegistry.class))
			.withPropertyValues("workqueue.queues.orders.workers=1")
			.run((context) -> {
				assertThat(context).hasNotFailed().hasBean("orders").doesNotHaveBean(MetricsProvider.class);
				assertThat(context.getBean("orders", RateLimitingQueue.class).len()).isZero();
			});
	}

}
