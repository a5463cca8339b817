package io.github.workqueue.redis.internal;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The module's internal packages form layers, each using only those below it: the queue
 * ({@code internal}), the batches ({@code internal.batch}), what instances share
 * ({@code internal.shared}), the wire ({@code internal.link}). Read from the main
 * sources' imports and fully qualified names, so that an arrow running back up fails the
 * build.
 */
class PackageLayersTest {

	private static final Path SOURCES = Path.of("src/main/java/io/github/workqueue/redis/internal");

	/** Top to bottom. */
	private static final List<String> LAYERS = List.of("", "batch", "shared", "link");

	private static final Pattern REFERENCE = Pattern
		.compile("io\\.github\\.workqueue\\.redis\\.internal(?:\\.(batch|shared|link))?\\.[A-Z]");

	@Test
	void everyInternalPackageShouldUseOnlyThePackagesBelowIt() throws IOException {
		List<String> upward = new ArrayList<>();
		for (String layer : LAYERS) {
			Path folder = layer.isEmpty() ? SOURCES : SOURCES.resolve(layer);
			try (Stream<Path> files = Files.list(folder)) {
				for (Path file : files.filter((path) -> path.toString().endsWith(".java")).toList()) {
					Matcher reference = REFERENCE.matcher(Files.readString(file));
					while (reference.find()) {
						String used = (reference.group(1) != null) ? reference.group(1) : "";
						if (LAYERS.indexOf(used) < LAYERS.indexOf(layer)) {
							upward
								.add(SOURCES.relativize(file) + " uses internal" + (used.isEmpty() ? "" : "." + used));
						}
					}
				}
			}
		}
		assertThat(upward).as("references from a package to one above it").isEmpty();
	}

	@Test
	void theCheckShouldSeeEveryLayer() throws IOException {
		for (String layer : LAYERS) {
			Path folder = layer.isEmpty() ? SOURCES : SOURCES.resolve(layer);
			try (Stream<Path> files = Files.list(folder)) {
				assertThat(files.filter((path) -> path.toString().endsWith(".java")).count()).as(layer)
					.isGreaterThan(3);
			}
		}
	}

}
