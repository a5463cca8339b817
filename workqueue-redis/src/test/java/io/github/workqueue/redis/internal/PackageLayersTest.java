package io.github.workqueue.redis.internal;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The module's internal packages form layers, each using only those below it: the queue
 * ({@code internal}), the batches ({@code internal.batch}), what instances share
 * ({@code internal.shared}), the wire ({@code internal.link}); and inside each package
 * the classes' references form no cycle, so that each package reads top to bottom too.
 * Read from the main sources (imports, fully qualified names and simple names, comments
 * and strings left out), so that an arrow running back up fails the build.
 */
class PackageLayersTest {

	private static final Path SOURCES = Path.of("src/main/java/io/github/workqueue/redis/internal");

	/** Top to bottom. */
	private static final List<String> LAYERS = List.of("", "batch", "shared", "link");

	private static final Pattern REFERENCE = Pattern
		.compile("io\\.github\\.workqueue\\.redis\\.internal(?:\\.(batch|shared|link))?\\.[A-Z]");

	private static final Pattern COMMENT_OR_STRING = Pattern
		.compile("(?s)/\\*.*?\\*/|//[^\\n]*|\"(?:\\\\.|[^\"\\\\])*\"");

	@Test
	void everyInternalPackageShouldUseOnlyThePackagesBelowIt() throws IOException {
		List<String> upward = new ArrayList<>();
		for (String layer : LAYERS) {
			for (Map.Entry<String, String> source : sources(layer).entrySet()) {
				Matcher reference = REFERENCE.matcher(source.getValue());
				while (reference.find()) {
					String used = (reference.group(1) != null) ? reference.group(1) : "";
					if (LAYERS.indexOf(used) < LAYERS.indexOf(layer)) {
						upward.add(source.getKey() + " (internal." + layer + ") uses internal." + used);
					}
				}
			}
		}
		assertThat(upward).as("references from a package to one above it").isEmpty();
	}

	@Test
	void theClassesOfEachPackageShouldReferToEachOtherWithoutACycle() throws IOException {
		for (String layer : LAYERS) {
			Map<String, String> sources = sources(layer);
			assertThat(sources).as("internal." + layer).hasSizeGreaterThan(3);
			Map<String, Set<String>> uses = new HashMap<>();
			for (Map.Entry<String, String> source : sources.entrySet()) {
				Set<String> used = new HashSet<>();
				for (String other : sources.keySet()) {
					if (!other.equals(source.getKey())
							&& Pattern.compile("\\b" + other + "\\b").matcher(source.getValue()).find()) {
						used.add(other);
					}
				}
				uses.put(source.getKey(), used);
			}
			assertThat(cycle(uses)).as("a cycle of references in internal." + layer).isEmpty();
		}
	}

	/** The main sources of a package, by class name, without comments and strings. */
	private static Map<String, String> sources(String layer) throws IOException {
		Path folder = layer.isEmpty() ? SOURCES : SOURCES.resolve(layer);
		Map<String, String> sources = new LinkedHashMap<>();
		try (Stream<Path> files = Files.list(folder)) {
			for (Path file : files.sorted().toList()) {
				String name = file.getFileName().toString();
				if (name.endsWith(".java") && !name.equals("package-info.java")) {
					sources.put(name.substring(0, name.length() - 5),
							COMMENT_OR_STRING.matcher(Files.readString(file)).replaceAll(" "));
				}
			}
		}
		return sources;
	}

	/** One cycle of the graph, as the classes along it, or an empty list if none. */
	private static List<String> cycle(Map<String, Set<String>> uses) {
		Set<String> done = new HashSet<>();
		for (String start : uses.keySet()) {
			List<String> path = new ArrayList<>();
			List<String> found = walk(start, uses, path, done);
			if (!found.isEmpty()) {
				return found;
			}
		}
		return List.of();
	}

	private static List<String> walk(String node, Map<String, Set<String>> uses, List<String> path, Set<String> done) {
		int seen = path.indexOf(node);
		if (seen >= 0) {
			List<String> cycle = new ArrayList<>(path.subList(seen, path.size()));
			cycle.add(node);
			return cycle;
		}
		if (done.contains(node)) {
			return List.of();
		}
		path.add(node);
		for (String next : uses.get(node)) {
			List<String> found = walk(next, uses, path, done);
			if (!found.isEmpty()) {
				return found;
			}
		}
		path.remove(path.size() - 1);
		done.add(node);
		return List.of();
	}

}
