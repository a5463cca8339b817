package io.github.workqueue.test.internal;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.ServerSocket;
import java.util.List;
import java.util.Map;
import java.util.UUID;

import org.jspecify.annotations.Nullable;
import redis.embedded.RedisServer;

import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.core.env.MapPropertySource;
import org.springframework.test.context.ContextConfigurationAttributes;
import org.springframework.test.context.ContextCustomizer;
import org.springframework.test.context.ContextCustomizerFactory;
import org.springframework.test.context.MergedContextConfiguration;
import org.springframework.test.context.TestContextAnnotationUtils;

import io.github.workqueue.test.EmbeddedRedisQueues;

/**
 * Points the context of a test class annotated {@link EmbeddedRedisQueues} at the test
 * JVM's embedded Redis, started on first use and stopped when the JVM ends.
 *
 * <p>
 * <b>Concurrency.</b> Thread-safe: the server is started once, under the class's lock.
 */
public final class EmbeddedRedisContextCustomizerFactory implements ContextCustomizerFactory {

	private static @Nullable RedisServer server;

	private static int port;

	@Override
	public @Nullable ContextCustomizer createContextCustomizer(Class<?> testClass,
			List<ContextConfigurationAttributes> configAttributes) {
		return TestContextAnnotationUtils.hasAnnotation(testClass, EmbeddedRedisQueues.class)
				? new EmbeddedRedisCustomizer() : null;
	}

	/** The port of the embedded Redis, started now if it is not yet. */
	static synchronized int redisPort() {
		if (server == null) {
			port = freePort();
			RedisServer started = RedisServer.builder()
				.port(port)
				.setting("bind 127.0.0.1")
				.setting("save \"\"")
				.build();
			started.start();
			Runtime.getRuntime().addShutdownHook(new Thread(started::stop, "workqueue-test-redis-stop"));
			server = started;
		}
		return port;
	}

	private static int freePort() {
		try (ServerSocket socket = new ServerSocket(0)) {
			return socket.getLocalPort();
		}
		catch (IOException ex) {
			throw new UncheckedIOException(ex);
		}
	}

	/**
	 * Adds the Redis settings as the first property source: they win over the
	 * application's own. Equal to every other, so that the contexts of annotated test
	 * classes are cached alike.
	 */
	private static final class EmbeddedRedisCustomizer implements ContextCustomizer {

		@Override
		public void customizeContext(ConfigurableApplicationContext context, MergedContextConfiguration merged) {
			int redis = redisPort();
			context.getEnvironment()
				.getPropertySources()
				.addFirst(new MapPropertySource("workqueueEmbeddedRedis",
						Map.of("spring.data.redis.url", "redis://127.0.0.1:" + redis, "workqueue.defaults.backend",
								"redis", "workqueue.defaults.key-prefix",
								"workqueue-test-" + UUID.randomUUID().toString().substring(0, 8))));
		}

		@Override
		public boolean equals(@Nullable Object other) {
			return other instanceof EmbeddedRedisCustomizer;
		}

		@Override
		public int hashCode() {
			return EmbeddedRedisCustomizer.class.hashCode();
		}

	}

}
