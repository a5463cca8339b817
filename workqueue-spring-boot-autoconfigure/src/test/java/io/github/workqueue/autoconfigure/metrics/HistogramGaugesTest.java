package io.github.workqueue.autoconfigure.metrics;

import java.util.List;

import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.micrometer.metrics.autoconfigure.MetricsAutoConfiguration;
import org.springframework.boot.micrometer.metrics.autoconfigure.export.simple.SimpleMetricsExportAutoConfiguration;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;

import io.github.workqueue.autoconfigure.WorkQueueAutoConfiguration;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Actuator without Prometheus: Spring Boot's simple registry, which shows a timer's
 * buckets as gauges tagged {@code le}.
 */
@ExtendWith(OutputCaptureExtension.class)
class HistogramGaugesTest {

	private final ApplicationContextRunner runner = new ApplicationContextRunner()
		.withConfiguration(
				AutoConfigurations.of(MetricsAutoConfiguration.class, SimpleMetricsExportAutoConfiguration.class,
						WorkQueueMetricsAutoConfiguration.class, WorkQueueAutoConfiguration.class))
		.withPropertyValues("workqueue.queues.orders.workers=1");

	@Test
	void bucketGaugesShouldRegisterWithoutAClashingName(CapturedOutput output) {
		this.runner.run((context) -> {
			MeterRegistry registry = context.getBean(MeterRegistry.class);
			assertThat(registry).isInstanceOf(SimpleMeterRegistry.class);
			for (String timer : List.of("workqueue.queue.duration", "workqueue.work.duration")) {
				List<String> bounds = registry.find(timer + ".histogram")
					.tag("name", "orders")
					.gauges()
					.stream()
					.map((Gauge gauge) -> gauge.getId().getTag("le"))
					.toList();
				assertThat(bounds).as(timer).doesNotContain("0").contains("0.000001", "1", "10").hasSize(8);
			}
		});
		assertThat(output).doesNotContain("has been already registered");
	}

}
