package io.github.workqueue.autoconfigure;

import java.time.Duration;

import org.junit.jupiter.api.Test;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

import io.github.workqueue.core.RateLimitingQueue;
import io.github.workqueue.core.WorkQueue;
import io.github.workqueue.spring.InvalidWorkQueueConfigurationException;
import io.github.workqueue.spring.QueueWorkerOptions;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Beans of the application's that stand where the starter's would: a bean with a queue's
 * name (a queue of its own replaces the configured one; anything else fails startup
 * saying which bean and how to fix it, instead of leaving the queue out without a word),
 * and the workers' options.
 */
class QueueBeanNamesTest {

	private final ApplicationContextRunner runner = new ApplicationContextRunner()
		.withConfiguration(AutoConfigurations.of(WorkQueueAutoConfiguration.class))
		.withPropertyValues("workqueue.queues.orders.workers=1");

	@Test
	void aBeanThatIsNotAQueueShouldFailStartupNamingItAndTheFix() {
		this.runner.withUserConfiguration(OrdersService.class)
			.run((context) -> assertThat(context).getFailure()
				.isInstanceOf(InvalidWorkQueueConfigurationException.class)
				.hasMessageContaining("'orders'")
				.hasMessageContaining(Orders.class.getName())
				.hasMessageContaining("is not a queue")
				.satisfies((failure) -> assertThat(((InvalidWorkQueueConfigurationException) failure).getAction())
					.contains("@Service(\"ordersService\")")));
	}

	@Test
	void aQueueBeanOfTheApplicationsShouldReplaceTheConfiguredOne() {
		this.runner.withUserConfiguration(OwnQueue.class).run((context) -> {
			assertThat(context).hasNotFailed();
			assertThat(context.getBean("orders")).isSameAs(context.getBean(OwnQueue.class).queue);
		});
	}

	@Test
	void aQueueWorkerOptionsBeanShouldReplaceTheOptionsFromProperties() {
		QueueWorkerOptions own = new QueueWorkerOptions(Duration.ofSeconds(3), false, false);
		this.runner.withBean(QueueWorkerOptions.class, () -> own)
			.withPropertyValues("workqueue.shutdown.timeout=45s")
			.run((context) -> assertThat(context).getBean(QueueWorkerOptions.class).isSameAs(own));
	}

	static class Orders {

	}

	@Configuration(proxyBeanMethods = false)
	static class OrdersService {

		@Bean
		Orders orders() {
			return new Orders();
		}

	}

	@Configuration(proxyBeanMethods = false)
	static class OwnQueue {

		final RateLimitingQueue<String> queue = WorkQueue.builder().name("orders").buildRateLimiting();

		@Bean
		RateLimitingQueue<String> orders() {
			return this.queue;
		}

	}

}
