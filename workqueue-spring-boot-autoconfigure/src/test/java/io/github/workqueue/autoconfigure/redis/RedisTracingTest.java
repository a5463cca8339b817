package io.github.workqueue.autoconfigure.redis;

import io.micrometer.tracing.Link;
import io.micrometer.tracing.Span;
import io.micrometer.tracing.Tracer;
import io.micrometer.tracing.test.simple.SimpleSpan;
import io.micrometer.tracing.test.simple.SimpleTracer;
import org.junit.jupiter.api.Test;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.data.redis.autoconfigure.DataRedisAutoConfiguration;
import org.springframework.boot.micrometer.observation.autoconfigure.ObservationAutoConfiguration;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.annotation.Configuration;

import io.github.workqueue.autoconfigure.WorkQueueAutoConfiguration;
import io.github.workqueue.autoconfigure.WorkQueueRedisAutoConfiguration;
import io.github.workqueue.autoconfigure.WorkQueueRegistry;
import io.github.workqueue.autoconfigure.observation.WorkQueueObservationAutoConfiguration;
import io.github.workqueue.autoconfigure.observation.WorkQueueTracingAutoConfiguration;
import io.github.workqueue.core.RateLimitingQueue;
import io.github.workqueue.redis.TestRedis;
import io.github.workqueue.spring.QueueWorker;

import static io.github.workqueue.autoconfigure.observation.TracingTestSpans.addInSpan;
import static io.github.workqueue.autoconfigure.observation.TracingTestSpans.processings;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Two applications on one Redis, each with its own tracer: the one that adds has no
 * worker, the other processes; the processing's span continues the adding request's trace
 * and links the adds deduplication absorbed.
 */
class RedisTracingTest {

	private static final String QUEUE = TestRedis.uniqueName("traced");

	private final SimpleTracer addingTracer = new SimpleTracer();

	private final SimpleTracer processingTracer = new SimpleTracer();

	private ApplicationContextRunner runner(Tracer tracer) {
		return new ApplicationContextRunner()
			.withConfiguration(
					AutoConfigurations.of(DataRedisAutoConfiguration.class, ObservationAutoConfiguration.class,
							WorkQueueObservationAutoConfiguration.class, WorkQueueTracingAutoConfiguration.class,
							WorkQueueRedisAutoConfiguration.class, WorkQueueAutoConfiguration.class))
			.withBean(Tracer.class, () -> tracer)
			.withPropertyValues("spring.data.redis.url=" + TestRedis.uri(), "workqueue.observation.enabled=true",
					"workqueue.queues." + QUEUE + ".backend=redis", "workers.queue=" + QUEUE);
	}

	@Test
	void theInstanceThatProcessesShouldContinueTheTraceOfTheOneThatAdded() {
		runner(this.addingTracer).run((adding) -> {
			RateLimitingQueue<Object> queue = adding.getBean(WorkQueueRegistry.class).getOrCreateQueue(QUEUE);
			Span first = addInSpan(this.addingTracer, queue, "order-1", "request");
			Span second = addInSpan(this.addingTracer, queue, "order-1", "request");
			Span third = addInSpan(this.addingTracer, queue, "order-1", "request");
			runner(this.processingTracer).withUserConfiguration(Worker.class).run((processing) -> {
				await().until(() -> processings(this.processingTracer, QUEUE).size() == 1);
				SimpleSpan span = processings(this.processingTracer, QUEUE).get(0);
				assertThat(span.getTraceId()).isEqualTo(first.context().traceId());
				assertThat(span.getParentId()).isEqualTo(first.context().spanId());
				assertThat(span.getLinks()).extracting(Link::getTraceContext)
					.extracting((linked) -> linked.spanId())
					.containsExactly(second.context().spanId(), third.context().spanId());
				assertThat(span.getTags()).containsEntry("messaging.destination.name", QUEUE)
					.containsEntry("workqueue.attempt", "1");
			});
		});
	}

	@Configuration(proxyBeanMethods = false)
	static class Worker {

		@QueueWorker("${workers.queue}")
		void handle(String item) {
		}

	}

}
