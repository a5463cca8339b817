package io.github.workqueue.spring;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

import org.junit.jupiter.api.Test;

import org.springframework.beans.factory.BeanCreationException;
import org.springframework.context.ApplicationContextException;
import org.springframework.context.annotation.AnnotationConfigApplicationContext;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

import io.github.workqueue.core.RateLimitingQueue;
import io.github.workqueue.core.WorkQueue;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.awaitility.Awaitility.await;

/**
 * The programming model on plain Spring Framework, without Spring Boot.
 */
class EnableQueueWorkersTest {

	@Test
	void workerShouldProcessItemsOfTheQueueBeanNamedAfterIt() {
		try (AnnotationConfigApplicationContext context = new AnnotationConfigApplicationContext(
				PlainSpringConfiguration.class)) {
			@SuppressWarnings("unchecked")
			RateLimitingQueue<String> orders = context.getBean("orders", RateLimitingQueue.class);
			orders.add("order-1");
			orders.add("order-2");
			OrderWorker worker = context.getBean(OrderWorker.class);
			await().atMost(Duration.ofSeconds(10)).until(() -> worker.processed.size() == 2);
			assertThat(worker.processed).containsExactly("order-1", "order-2");
			QueueWorkerRegistry registry = context.getBean(QueueWorkerRegistry.class);
			assertThat(registry.getContainer("orders")).isNotNull();
			assertThat(registry.getContainer("orders").workers()).isEqualTo(WorkerSettings.DEFAULTS.workers());
		}
	}

	@Test
	void enablingTwiceShouldChangeNothing() {
		try (AnnotationConfigApplicationContext context = new AnnotationConfigApplicationContext(
				PlainSpringConfiguration.class, AgainConfiguration.class)) {
			assertThat(context.getBeansOfType(QueueWorkerRegistry.class)).hasSize(1);
		}
	}

	@Test
	void workerOfAQueueWithoutABeanShouldFailAtStartupNamingTheQueue() {
		assertThatExceptionOfType(RuntimeException.class)
			.isThrownBy(() -> new AnnotationConfigApplicationContext(MissingQueueConfiguration.class).close())
			.satisfies((ex) -> assertThat(rootCause(ex)).isInstanceOf(InvalidWorkQueueConfigurationException.class)
				.hasMessageContaining("queue 'orders'")
				.hasMessageContaining("no RateLimitingQueue bean is named 'orders'"));
	}

	private static Throwable rootCause(Throwable ex) {
		Throwable cause = ex;
		while (cause.getCause() != null
				&& (cause instanceof BeanCreationException || cause instanceof ApplicationContextException)) {
			cause = cause.getCause();
		}
		return cause;
	}

	@Configuration(proxyBeanMethods = false)
	@EnableQueueWorkers
	static class PlainSpringConfiguration {

		@Bean
		RateLimitingQueue<String> orders() {
			return WorkQueue.builder().name("orders").buildRateLimiting();
		}

		@Bean
		OrderWorker orderWorker() {
			return new OrderWorker();
		}

	}

	@Configuration(proxyBeanMethods = false)
	@EnableQueueWorkers
	static class AgainConfiguration {

	}

	@Configuration(proxyBeanMethods = false)
	@EnableQueueWorkers
	static class MissingQueueConfiguration {

		@Bean
		OrderWorker orderWorker() {
			return new OrderWorker();
		}

	}

	static class OrderWorker {

		final List<String> processed = new CopyOnWriteArrayList<>();

		@QueueWorker("orders")
		void handle(String order) {
			this.processed.add(order);
		}

	}

}
