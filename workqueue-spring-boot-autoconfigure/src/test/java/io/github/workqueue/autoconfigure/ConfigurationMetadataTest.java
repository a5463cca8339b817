package io.github.workqueue.autoconfigure;

import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;

import com.jayway.jsonpath.JsonPath;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The IDE metadata users see: the per-queue properties they actually set have value
 * hints, not only the defaults.
 */
class ConfigurationMetadataTest {

	@Test
	void perQueuePropertiesShouldHaveValueHints() throws Exception {
		String metadata = metadata();
		List<String> hinted = JsonPath.read(metadata, "$.hints[*].name");
		assertThat(hinted).contains("workqueue.queues.values.rate-limiter.type",
				"workqueue.queues.values.not-retryable", "workqueue.queues.values.rate-limiter.bean",
				"workqueue.queues.values.item-type", "workqueue.queues.values.rate-limiter.limiters.type",
				"workqueue.queues.values.backend", "workqueue.defaults.backend", "workqueue.queues.values.fairness",
				"workqueue.defaults.fairness");
		List<String> types = JsonPath.read(metadata,
				"$.hints[?(@.name == 'workqueue.queues.values.rate-limiter.type')].values[*].value");
		assertThat(types).containsExactly("controller", "exponential", "fast-slow", "bucket", "max-of", "bean");
		List<String> descriptions = JsonPath.read(metadata,
				"$.hints[?(@.name == 'workqueue.queues.values.rate-limiter.type')].values[*].description");
		assertThat(descriptions).hasSize(6);
		List<String> targets = JsonPath.read(metadata,
				"$.hints[?(@.name == 'workqueue.queues.values.not-retryable')].providers[*].parameters.target");
		assertThat(targets).containsExactly("java.lang.Throwable");
	}

	@Test
	void everyQueuePropertyShouldHaveADescriptionAndItsDefault() throws Exception {
		String metadata = metadata();
		List<Map<String, Object>> defaults = JsonPath.read(metadata,
				"$.properties[?(@.name =~ /workqueue\\.defaults\\..*/)]");
		assertThat(defaults).hasSizeGreaterThanOrEqualTo(19);
		assertThat(defaults).allSatisfy(
				(property) -> assertThat(property.get("description")).as("description of %s", property.get("name"))
					.asString()
					.isNotBlank());
		// Every property with a default says it; the others are absent by default.
		List<String> withoutDefault = List.of("workqueue.defaults.item-type", "workqueue.defaults.max-retries",
				"workqueue.defaults.not-retryable", "workqueue.defaults.rate-limiter.bean",
				"workqueue.defaults.rate-limiter.limiters", "workqueue.defaults.rate-limiter.max-wait",
				"workqueue.defaults.fairness");
		assertThat(defaults).filteredOn((property) -> !withoutDefault.contains(property.get("name")))
			.allSatisfy((property) -> assertThat(property.get("defaultValue")).as("default of %s", property.get("name"))
				.isNotNull());
		assertThat(JsonPath.<List<Object>>read(metadata,
				"$.properties[?(@.name == 'workqueue.defaults.lease-duration')].defaultValue"))
			.containsExactly("30s");
		assertThat(
				JsonPath.<List<Object>>read(metadata, "$.properties[?(@.name == 'workqueue.keep-alive')].defaultValue"))
			.containsExactly(true);
		// Boot's guideline: the default is the metadata's defaultValue, not a sentence.
		assertThat(JsonPath.<List<String>>read(metadata,
				"$.properties[?(@.defaultValue != null && @.description =~ /.*Defaults to.*/)].name"))
			.as("descriptions that repeat their default")
			.isEmpty();
		// Refused at startup, so an IDE marks it as an error before the application runs.
		assertThat(JsonPath.<List<Object>>read(metadata,
				"$.properties[?(@.name == 'workqueue.defaults.item-type')].deprecation.level"))
			.containsExactly("error");
	}

	@Test
	void theDashboardPropertiesShouldBeDescribedWithTheirDefaults() throws Exception {
		String metadata = metadata();
		List<Map<String, Object>> dashboard = JsonPath.read(metadata,
				"$.properties[?(@.name =~ /workqueue\\.dashboard\\..*/)]");
		assertThat(dashboard).extracting((property) -> property.get("name"))
			.containsExactlyInAnyOrder("workqueue.dashboard.enabled", "workqueue.dashboard.path",
					"workqueue.dashboard.sample-interval", "workqueue.dashboard.history",
					"workqueue.dashboard.dead-letter-threshold", "workqueue.dashboard.wait-threshold");
		assertThat(dashboard).allSatisfy((property) -> assertThat(property.get("description")).asString().isNotBlank());
		assertThat(JsonPath.<List<Object>>read(metadata,
				"$.properties[?(@.name == 'workqueue.dashboard.enabled')].defaultValue"))
			.containsExactly(false);
		assertThat(JsonPath.<List<Object>>read(metadata,
				"$.properties[?(@.name == 'workqueue.dashboard.sample-interval')].defaultValue"))
			.containsExactly("2s");
		assertThat(JsonPath.<List<Object>>read(metadata,
				"$.properties[?(@.name == 'workqueue.dashboard.wait-threshold')].defaultValue"))
			.containsExactly("10s");
	}

	@Test
	void theQueuesMapShouldBeDescribedWithItsValueType() throws Exception {
		List<String> types = JsonPath.read(metadata(), "$.properties[?(@.name == 'workqueue.queues')].type");
		assertThat(types).singleElement().asString().contains("WorkQueueProperties$QueueProperties");
	}

	private static String metadata() throws Exception {
		try (InputStream in = ConfigurationMetadataTest.class
			.getResourceAsStream("/META-INF/spring-configuration-metadata.json")) {
			assertThat(in).as("generated metadata").isNotNull();
			return new String(in.readAllBytes(), StandardCharsets.UTF_8);
		}
	}

}
