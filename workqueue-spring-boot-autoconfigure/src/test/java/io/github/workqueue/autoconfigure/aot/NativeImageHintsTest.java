package io.github.workqueue.autoconfigure.aot;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.Test;

import org.springframework.aot.hint.RuntimeHints;
import org.springframework.aot.hint.RuntimeHintsRegistrar;
import org.springframework.aot.hint.annotation.ReflectiveRuntimeHintsRegistrar;
import org.springframework.aot.hint.predicate.RuntimeHintsPredicates;
import org.springframework.core.io.Resource;
import org.springframework.core.io.support.PathMatchingResourcePatternResolver;
import org.springframework.core.io.support.SpringFactoriesLoader;

import io.github.workqueue.spring.QueueWorker;
import io.github.workqueue.spring.WorkContext;
import io.github.workqueue.spring.WorkResult;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * What a native image needs from workqueue is registered as runtime hints: every Lua
 * script and include and every dashboard file found in the jars (a new file without a
 * hint fails here), and a {@code @QueueWorker} method with its item type.
 */
class NativeImageHintsTest {

	private final RuntimeHints hints = new RuntimeHints();

	@Test
	void everyFileReadAtRunTimeShouldHaveAHintThroughAotFactories() throws IOException {
		List<RuntimeHintsRegistrar> registrars = SpringFactoriesLoader
			.forResourceLocation("META-INF/spring/aot.factories")
			.load(RuntimeHintsRegistrar.class);
		assertThat(registrars).isNotEmpty();
		registrars.forEach((registrar) -> registrar.registerHints(this.hints, getClass().getClassLoader()));
		List<String> files = new ArrayList<>();
		files.addAll(found("io/github/workqueue/redis/internal/link/scripts/", "**/*.lua"));
		files.addAll(found("META-INF/workqueue-dashboard/", "*"));
		assertThat(files).as("the scripts and the dashboard's files")
			.contains("io/github/workqueue/redis/internal/link/scripts/batch.lua",
					"io/github/workqueue/redis/internal/link/scripts/includes/fairness.lua",
					"META-INF/workqueue-dashboard/index.html", "META-INF/workqueue-dashboard/dashboard.js")
			.hasSizeGreaterThan(30);
		assertThat(files).allSatisfy(
				(file) -> assertThat(RuntimeHintsPredicates.resource().forResource(file)).as(file).accepts(this.hints));
	}

	@Test
	void aQueueWorkerMethodShouldBeInvocableAndItsItemTypeBound() throws Exception {
		new ReflectiveRuntimeHintsRegistrar().registerRuntimeHints(this.hints, Worker.class);
		assertThat(RuntimeHintsPredicates.reflection().onMethodInvocation(Worker.class, "reconcile"))
			.accepts(this.hints);
		assertThat(RuntimeHintsPredicates.reflection().onMethodInvocation(Worker.class, "audit")).accepts(this.hints);
		assertThat(RuntimeHintsPredicates.reflection()
			.onConstructorInvocation(OrderKey.class.getDeclaredConstructor(String.class, int.class)))
			.as("read back from JSON")
			.accepts(this.hints);
		assertThat(RuntimeHintsPredicates.reflection().onMethodInvocation(OrderKey.class, "region"))
			.as("written as JSON")
			.accepts(this.hints);
		assertThat(this.hints.reflection().getTypeHint(WorkContext.class)).as("not an item").isNull();
	}

	private static List<String> found(String location, String pattern) throws IOException {
		List<String> files = new ArrayList<>();
		for (Resource resource : new PathMatchingResourcePatternResolver()
			.getResources("classpath*:" + location + pattern)) {
			String url = resource.getURL().toString();
			if (resource.isReadable()) {
				files.add(url.substring(url.lastIndexOf(location)));
			}
		}
		return files;
	}

	record OrderKey(String region, int id) {
	}

	static class Worker {

		@QueueWorker("orders")
		WorkResult reconcile(OrderKey key) {
			return WorkResult.done();
		}

		@QueueWorker("audit")
		void audit(String entry, WorkContext context) {
		}

	}

}
