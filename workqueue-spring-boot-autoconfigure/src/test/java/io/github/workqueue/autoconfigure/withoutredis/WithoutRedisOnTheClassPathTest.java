package io.github.workqueue.autoconfigure.withoutredis;

import java.io.File;
import java.net.URL;
import java.net.URLClassLoader;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;

import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.context.annotation.Bean;

import io.github.workqueue.spring.QueueWorker;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

/**
 * The starter without the Redis module, as the README's quick start has it: an
 * application with an in-memory queue starts, processes a key and stops, in a class
 * loader that holds the test class path minus the Redis module, Lettuce and Spring Data
 * Redis. Any class of the starter that reaches a Redis class outside a condition fails
 * here with a {@link NoClassDefFoundError}.
 */
class WithoutRedisOnTheClassPathTest {

	private static final List<String> LEFT_OUT = List.of("workqueue-redis", "lettuce", "spring-data-redis",
			"spring-boot-data-redis", "embedded-redis");

	@Test
	void anInMemoryQueueShouldStartProcessAndStop() throws Exception {
		ClassLoader before = Thread.currentThread().getContextClassLoader();
		try (URLClassLoader loader = new URLClassLoader(withoutRedis(), ClassLoader.getPlatformClassLoader())) {
			assertThatExceptionOfType(ClassNotFoundException.class)
				.isThrownBy(() -> loader.loadClass("io.github.workqueue.redis.RedisQueue"));
			Thread.currentThread().setContextClassLoader(loader);
			Class<?> application = loader.loadClass(OrdersApplication.class.getName());
			Object context = loader.loadClass("org.springframework.boot.SpringApplication")
				.getMethod("run", Class.class, String[].class)
				.invoke(null, application, new String[] { "--spring.main.web-application-type=none",
						"--spring.main.banner-mode=off", "--workqueue.queues.orders.workers=2" });
			try {
				Object queue = loader.loadClass("org.springframework.beans.factory.BeanFactory")
					.getMethod("getBean", String.class)
					.invoke(context, "orders");
				loader.loadClass("io.github.workqueue.core.WorkQueue")
					.getMethod("add", Object.class)
					.invoke(queue, "order-1");
				Object processed = application.getField("PROCESSED").get(null);
				assertThat((boolean) processed.getClass()
					.getMethod("await", long.class, TimeUnit.class)
					.invoke(processed, 30, TimeUnit.SECONDS)).as("order-1 processed").isTrue();
			}
			finally {
				loader.loadClass("org.springframework.context.ConfigurableApplicationContext")
					.getMethod("close")
					.invoke(context);
			}
		}
		finally {
			Thread.currentThread().setContextClassLoader(before);
		}
	}

	private static URL[] withoutRedis() throws Exception {
		String classPath = System.getProperty("surefire.test.class.path", System.getProperty("java.class.path"));
		List<URL> urls = new ArrayList<>();
		int left = 0;
		for (String entry : classPath.split(File.pathSeparator)) {
			if (LEFT_OUT.stream().anyMatch(entry::contains)) {
				left++;
			}
			else if (!entry.isBlank()) {
				urls.add(new File(entry).toURI().toURL());
			}
		}
		assertThat(left).as("Redis entries left out of " + classPath).isPositive();
		return urls.toArray(URL[]::new);
	}

	/** The quick start's application, loaded without the Redis module. */
	@SpringBootConfiguration
	@EnableAutoConfiguration
	public static class OrdersApplication {

		public static final CountDownLatch PROCESSED = new CountDownLatch(1);

		@Bean
		Orders reconciler() {
			return new Orders();
		}

	}

	static class Orders {

		@QueueWorker("orders")
		void reconcile(String orderId) {
			OrdersApplication.PROCESSED.countDown();
		}

	}

}
