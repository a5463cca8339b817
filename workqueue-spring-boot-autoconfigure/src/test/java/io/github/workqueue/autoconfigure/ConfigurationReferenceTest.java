package io.github.workqueue.autoconfigure;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.ObjectMapper;

import org.springframework.boot.convert.DurationStyle;

import io.github.workqueue.autoconfigure.internal.QueueDefaults;
import io.github.workqueue.redis.RedisQueueBuilder;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Holds the defaults to one source, {@link QueueDefaults}: the configuration metadata
 * (generated from the properties classes, with the defaults of the nullable queue
 * properties in additional-spring-configuration-metadata.json) states the same values;
 * docs/configuration.md lists every property of the metadata with the same default; the
 * Redis builder's defaults agree with the starter's.
 */
class ConfigurationReferenceTest {

	private static final Pattern ROW = Pattern.compile("^\\| (.+?) \\| (.+?) \\| .+\\|$");

	private static final Pattern CODE = Pattern.compile("`([^`]+)`");

	@Test
	void queueDefaultsShouldBeWhatTheMetadataStates() throws IOException {
		Map<String, Object> expected = new LinkedHashMap<>();
		expected.put("workers", QueueDefaults.WORKERS);
		expected.put("rate-limiter.type", QueueDefaults.RATE_LIMITER_TYPE);
		expected.put("rate-limiter.base-delay", QueueDefaults.BASE_DELAY);
		expected.put("rate-limiter.max-delay", QueueDefaults.MAX_DELAY);
		expected.put("rate-limiter.qps", QueueDefaults.QPS);
		expected.put("rate-limiter.burst", QueueDefaults.BURST);
		expected.put("rate-limiter.fast-delay", QueueDefaults.FAST_DELAY);
		expected.put("rate-limiter.slow-delay", QueueDefaults.SLOW_DELAY);
		expected.put("rate-limiter.max-fast-attempts", QueueDefaults.MAX_FAST_ATTEMPTS);
		expected.put("backend", QueueDefaults.BACKEND.name().toLowerCase(Locale.ROOT));
		expected.put("default-priority", QueueDefaults.DEFAULT_PRIORITY);
		expected.put("lease-duration", QueueDefaults.LEASE_DURATION);
		expected.put("max-redeliveries", QueueDefaults.MAX_REDELIVERIES);
		expected.put("key-prefix", QueueDefaults.KEY_PREFIX);
		expected.put("shards", QueueDefaults.SHARDS);
		expected.put("prefetch", QueueDefaults.PREFETCH);
		expected.put("adaptive-prefetch", QueueDefaults.ADAPTIVE_PREFETCH);
		expected.put("max-async-adds", QueueDefaults.MAX_ASYNC_ADDS);
		expected.put("replicas-ack", QueueDefaults.REPLICAS_ACK);
		expected.put("replicas-ack-timeout", QueueDefaults.REPLICAS_ACK_TIMEOUT);
		Map<String, String> metadata = metadataDefaults();
		expected.forEach((suffix, value) -> {
			String stated = metadata.get("workqueue.defaults." + suffix);
			assertThat(stated != null && same(stated, value))
				.as("workqueue.defaults.%s: the metadata says %s, QueueDefaults %s", suffix, stated, value)
				.isTrue();
		});
	}

	@Test
	void theRedisBuilderShouldHaveTheStartersDefaults() {
		assertThat(RedisQueueBuilder.DEFAULT_PREFETCH).isEqualTo(QueueDefaults.PREFETCH);
		assertThat(RedisQueueBuilder.MOST_PREFETCH).isEqualTo(QueueDefaults.MOST_PREFETCH);
		assertThat(RedisQueueBuilder.DEFAULT_MAX_ASYNC_ADDS).isEqualTo(QueueDefaults.MAX_ASYNC_ADDS);
		assertThat(RedisQueueBuilder.DEFAULT_REPLICAS_ACK_TIMEOUT).isEqualTo(QueueDefaults.REPLICAS_ACK_TIMEOUT);
	}

	@Test
	void theReferenceShouldListEveryPropertyWithItsDefault() throws IOException {
		Map<String, String> documented = documentedDefaults();
		Map<String, String> metadata = metadataDefaults();
		metadata.remove("workqueue.queues");
		assertThat(documented.keySet()).as("the properties of docs/configuration.md")
			.containsExactlyInAnyOrderElementsOf(metadata.keySet());
		metadata.forEach((name, stated) -> {
			if (stated != null) {
				String cell = documented.get(name);
				Matcher literal = CODE.matcher(cell);
				assertThat(literal.find() && same(literal.group(1), stated))
					.as("%s: the metadata's default is %s, docs/configuration.md says %s", name, stated, cell)
					.isTrue();
			}
		});
	}

	/**
	 * Property name to its default cell; {@code …x} and {@code workqueue.queues.<name>.x}
	 * stand for {@code workqueue.defaults.x}.
	 */
	private static Map<String, String> documentedDefaults() throws IOException {
		Map<String, String> documented = new TreeMap<>();
		// Only the tables whose first column is "property" (not the beans' table).
		boolean properties = false;
		for (String line : Files.readAllLines(Path.of("..", "docs", "configuration.md"))) {
			Matcher row = ROW.matcher(line);
			if (!row.matches()) {
				properties = properties && line.startsWith("|");
				continue;
			}
			if (row.group(1).equals("property") || row.group(1).equals("bean")) {
				properties = row.group(1).equals("property");
				continue;
			}
			if (!properties || row.group(1).startsWith("---")) {
				continue;
			}
			Matcher name = CODE.matcher(row.group(1));
			while (name.find()) {
				String property = name.group(1)
					.replaceFirst("^…", "workqueue.defaults.")
					.replaceFirst("^workqueue\\.queues\\.<name>\\.", "workqueue.defaults.");
				documented.put(property, row.group(2));
			}
		}
		return documented;
	}

	/** Property name to its default as the metadata states it, or null. */
	private static Map<String, String> metadataDefaults() {
		JsonNode root = new ObjectMapper()
			.readTree(Path.of("target", "classes", "META-INF", "spring-configuration-metadata.json").toFile());
		Map<String, String> defaults = new TreeMap<>();
		for (JsonNode property : root.path("properties")) {
			JsonNode value = property.path("defaultValue");
			defaults.put(property.path("name").asString(),
					(value.isMissingNode() || value.isNull()) ? null : value.asString());
		}
		return defaults;
	}

	/** Whether a stated default is the value: durations by length, numbers by value. */
	private static boolean same(String stated, Object value) {
		if (value instanceof Duration duration) {
			return DurationStyle.detectAndParse(stated).equals(duration);
		}
		String text = value.toString();
		if (text.matches("-?[0-9.]+") && stated.matches("-?[0-9.]+")) {
			return Double.parseDouble(stated) == Double.parseDouble(text);
		}
		if (text.matches("[0-9]+(ns|us|ms|s|m|h|d)") && stated.matches("[0-9]+(ns|us|ms|s|m|h|d)")) {
			return DurationStyle.detectAndParse(stated).equals(DurationStyle.detectAndParse(text));
		}
		// An enum's value: Boot binds read-only, read_only and READ_ONLY alike.
		return stated.replace('-', '_').equalsIgnoreCase(text.replace('-', '_'));
	}

}
