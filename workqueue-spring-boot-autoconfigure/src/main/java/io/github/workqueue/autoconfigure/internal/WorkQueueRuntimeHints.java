package io.github.workqueue.autoconfigure.internal;

import org.jspecify.annotations.Nullable;

import org.springframework.aot.hint.RuntimeHints;
import org.springframework.aot.hint.RuntimeHintsRegistrar;

/**
 * The files workqueue reads from its jars at run time, for a native image: the Lua
 * scripts of a Redis queue and the files they include, and the dashboard's page, scripts
 * and style. The reflection of {@code @QueueWorker} methods and their item types comes
 * from the annotation itself; the endpoint's answers and the configuration properties
 * from Spring Boot's own processing. Registered through
 * {@code META-INF/spring/aot.factories}.
 *
 * <p>
 * <b>Concurrency.</b> Stateless.
 */
public final class WorkQueueRuntimeHints implements RuntimeHintsRegistrar {

	/** Where a Redis queue's scripts are, beside the class that reads them. */
	static final String SCRIPTS = "io/github/workqueue/redis/internal/link/scripts/";

	/** Where the dashboard's files are. */
	static final String DASHBOARD = "META-INF/workqueue-dashboard/";

	@Override
	public void registerHints(RuntimeHints hints, @Nullable ClassLoader classLoader) {
		hints.resources()
			.registerPattern(SCRIPTS + "*.lua")
			.registerPattern(SCRIPTS + "includes/*.lua")
			.registerPattern(DASHBOARD + "*");
	}

}
