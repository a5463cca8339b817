package io.github.workqueue.sample;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import javax.tools.DiagnosticCollector;
import javax.tools.JavaCompiler;
import javax.tools.JavaFileObject;
import javax.tools.SimpleJavaFileObject;
import javax.tools.StandardJavaFileManager;
import javax.tools.ToolProvider;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Holds README.md and docs/ to what they show: every relative link reaches a file and,
 * with an anchor, a heading in it; every Java block compiles against the project's
 * modules. A block that is not a whole file is compiled in a class of its own, with the
 * common imports; what it uses without declaring (a queue, a store of the reader's) is
 * declared in an HTML comment right above it, {@code <!-- compiled with: ... -->}, which
 * a reader of the rendered page does not see.
 */
class DocumentationTest {

	private static final Path ROOT = Path.of("..").toAbsolutePath().normalize();

	private static final Pattern LINK = Pattern.compile("\\]\\(([^)\\s]+)\\)");

	private static final Pattern JAVA_BLOCK = Pattern
		.compile("(?:<!-- compiled with: (.*?) -->\\n)?( *)```java\\n(.*?)\\n *```", Pattern.DOTALL);

	private static final String IMPORTS = """
			import java.time.*;
			import java.util.*;
			import java.util.stream.*;
			import org.springframework.context.event.EventListener;
			import org.springframework.stereotype.Component;
			import io.github.workqueue.core.*;
			import io.github.workqueue.spring.*;
			import io.github.workqueue.redis.*;
			""";

	@Test
	void everyRelativeLinkShouldReachAFileAndItsHeading() throws IOException {
		List<String> broken = new ArrayList<>();
		for (Path document : documents()) {
			String text = withoutCodeBlocks(Files.readString(document));
			Matcher link = LINK.matcher(text);
			while (link.find()) {
				String target = link.group(1);
				if (target.startsWith("http://") || target.startsWith("https://") || target.startsWith("mailto:")) {
					continue;
				}
				int hash = target.indexOf('#');
				String file = (hash >= 0) ? target.substring(0, hash) : target;
				Path resolved = file.isEmpty() ? document : document.getParent().resolve(file).normalize();
				if (!Files.exists(resolved)) {
					broken.add(ROOT.relativize(document) + ": " + target + " (no such file)");
				}
				else if (hash >= 0 && !anchors(resolved).contains(target.substring(hash + 1))) {
					broken.add(ROOT.relativize(document) + ": " + target + " (no such heading)");
				}
			}
		}
		assertThat(broken).as("broken links").isEmpty();
	}

	@Test
	void everyJavaBlockShouldCompile(@TempDir Path classes) throws IOException {
		List<JavaFileObject> sources = new ArrayList<>();
		for (Path document : documents()) {
			String text = Files.readString(document);
			Matcher block = JAVA_BLOCK.matcher(text);
			while (block.find()) {
				int line = text.substring(0, block.start(3)).split("\n", -1).length;
				String name = document.getFileName().toString().replace(".md", "").replace('-', '_') + "_line" + line;
				String code = block.group(3).replaceAll("(?m)^" + block.group(2), "");
				sources.add(source(name, code, (block.group(1) != null) ? block.group(1) : ""));
			}
		}
		assertThat(sources).as("Java blocks found").hasSizeGreaterThan(5);
		JavaCompiler compiler = ToolProvider.getSystemJavaCompiler();
		DiagnosticCollector<JavaFileObject> diagnostics = new DiagnosticCollector<>();
		try (StandardJavaFileManager files = compiler.getStandardFileManager(diagnostics, null, null)) {
			boolean compiled = compiler
				.getTask(null, files, diagnostics, List.of("-proc:none", "-d", classes.toString(), "-classpath",
						System.getProperty("java.class.path")), null, sources)
				.call();
			assertThat(diagnostics.getDiagnostics()
				.stream()
				.filter((diagnostic) -> diagnostic.getKind() == javax.tools.Diagnostic.Kind.ERROR)
				.map((diagnostic) -> diagnostic.getSource().getName() + ":" + diagnostic.getLineNumber() + ": "
						+ diagnostic.getMessage(Locale.ROOT)))
				.as("compile errors")
				.isEmpty();
			assertThat(compiled).isTrue();
		}
	}

	/**
	 * A block as a compilation unit: a whole file as it is; declarations of types in a
	 * file with the common imports (and the context's types beside them); members or
	 * statements in a class of their own, with the context's declarations as members.
	 */
	private static JavaFileObject source(String name, String code, String context) {
		if (code.startsWith("package ")) {
			String type = code.replaceAll("(?s).*?(?:class|interface|record|enum) (\\w+).*", "$1");
			return new Source(code.replaceAll("(?s)^package ([\\w.]+);.*", "$1").replace('.', '/') + "/" + type, code);
		}
		StringBuilder imports = new StringBuilder(IMPORTS);
		StringBuilder body = new StringBuilder();
		code.lines().forEach((line) -> (line.startsWith("import ") ? imports : body).append(line).append('\n'));
		String rest = body.toString().strip();
		String firstCode = rest.replaceAll("(?s)^(@\\w+(\\([^)]*\\))?\\s+)*", "");
		String unit;
		if (firstCode.matches("(?s)^(public |final |abstract )*(class|interface|record|enum) .*")) {
			unit = imports + rest + "\n" + context + "\n";
		}
		else if (firstCode.matches(
				"(?s)^(public |private |static |final )*[\\w<>, ?]+ \\w+\\([^;]*\\)\\s*(throws [\\w, .]+)?\\s*\\{.*")) {
			unit = imports + "class " + name + " {\n" + context + "\n" + rest + "\n}\n";
		}
		else {
			unit = imports + "class " + name + " {\n" + context + "\nvoid snippet() throws Exception {\n" + rest
					+ "\n}\n}\n";
		}
		return new Source(name, unit);
	}

	private static List<Path> documents() throws IOException {
		List<Path> all = new ArrayList<>(List.of(ROOT.resolve("README.md")));
		try (Stream<Path> docs = Files.list(ROOT.resolve("docs"))) {
			docs.filter((path) -> path.toString().endsWith(".md")).sorted().forEach(all::add);
		}
		return all;
	}

	/** GitHub's anchors of a document's headings. */
	private static Set<String> anchors(Path document) throws IOException {
		Set<String> anchors = new HashSet<>();
		for (String line : withoutCodeBlocks(Files.readString(document)).split("\n")) {
			if (line.startsWith("#")) {
				String title = line.replaceFirst("^#+\\s*", "").toLowerCase(Locale.ROOT);
				anchors.add(title.replaceAll("[^\\p{L}\\p{N} _-]", "").replace(' ', '-'));
			}
		}
		return anchors;
	}

	private static String withoutCodeBlocks(String markdown) {
		return markdown.replaceAll("(?s)```.*?```", "");
	}

	private static final class Source extends SimpleJavaFileObject {

		private final String code;

		Source(String path, String code) {
			super(java.net.URI.create("string:///" + path + Kind.SOURCE.extension), Kind.SOURCE);
			this.code = code;
		}

		@Override
		public CharSequence getCharContent(boolean ignoreEncodingErrors) {
			return this.code;
		}

	}

}
