package io.github.workqueue.autoconfigure.observation;

import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

import io.micrometer.tracing.Link;
import io.micrometer.tracing.Span;
import io.micrometer.tracing.Tracer;
import io.micrometer.tracing.test.simple.SimpleSpan;
import io.micrometer.tracing.test.simple.SimpleTracer;
import org.junit.jupiter.api.Test;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.micrometer.observation.autoconfigure.ObservationAutoConfiguration;
import org.springframework.boot.test.context.FilteredClassLoader;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.annotation.Configuration;

import io.github.workqueue.autoconfigure.WorkQueueAutoConfiguration;
import io.github.workqueue.autoconfigure.WorkQueueRegistry;
import io.github.workqueue.core.RateLimitingQueue;
import io.github.workqueue.core.trace.TraceCapture;
import io.github.workqueue.spring.QueueWorker;

import static io.github.workqueue.autoconfigure.observation.TracingTestSpans.addInSpan;
import static io.github.workqueue.autoconfigure.observation.TracingTestSpans.processings;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * With a tracer, the span of each processing continues the trace of the add that caused
 * it, links the adds deduplication absorbed, and a retry stays in that trace; in memory
 * here ({@code RedisTracingTest} does it across two applications on Redis).
 */
class WorkQueueTracingTest {

	private final SimpleTracer tracer = new SimpleTracer();

	private final ApplicationContextRunner runner = new ApplicationContextRunner()
		.withConfiguration(
				AutoConfigurations.of(ObservationAutoConfiguration.class, WorkQueueObservationAutoConfiguration.class,
						WorkQueueTracingAutoConfiguration.class, WorkQueueAutoConfiguration.class))
		.withBean(Tracer.class, () -> this.tracer)
		.withPropertyValues("workqueue.observation.enabled=true", "workqueue.queues.orders.workers=1")
		.withUserConfiguration(Worker.class);

	@Test
	void theProcessingShouldBeAChildOfTheAddingSpanWithTheMessagingKeys() {
		this.runner.run((context) -> {
			RateLimitingQueue<Object> queue = context.getBean(WorkQueueRegistry.class).getOrCreateQueue("orders");
			Span request = addInSpan(this.tracer, queue, "ok", "request");
			await().until(() -> processings(this.tracer, "orders").size() == 1);
			SimpleSpan processing = processings(this.tracer, "orders").get(0);
			assertThat(processing.getTraceId()).isEqualTo(request.context().traceId());
			assertThat(processing.getParentId()).isEqualTo(request.context().spanId());
			assertThat(processing.getKind()).isEqualTo(Span.Kind.CONSUMER);
			assertThat(processing.getTags()).containsEntry("messaging.system", "workqueue")
				.containsEntry("messaging.destination.name", "orders")
				.containsEntry("messaging.operation.type", "process")
				.containsEntry("outcome", "success")
				.containsEntry(WorkQueueTracingObservationHandler.ATTEMPT, "1");
			assertThat(processing.getLinks()).isEmpty();
		});
	}

	@Test
	void addsAbsorbedWhileTheKeyWaitedShouldBeLinks() {
		this.runner.run((context) -> {
			RateLimitingQueue<Object> queue = context.getBean(WorkQueueRegistry.class).getOrCreateQueue("orders");
			Worker worker = context.getBean(Worker.class);
			queue.add("block");
			assertThat(worker.blocking.await(10, TimeUnit.SECONDS)).isTrue();
			Span first = addInSpan(this.tracer, queue, "k", "first");
			Span second = addInSpan(this.tracer, queue, "k", "second");
			Span third = addInSpan(this.tracer, queue, "k", "third");
			worker.release.countDown();
			await().until(() -> processings(this.tracer, "orders").size() == 2);
			SimpleSpan processing = processings(this.tracer, "orders").get(1);
			assertThat(processing.getParentId()).isEqualTo(first.context().spanId());
			assertThat(processing.getLinks()).extracting(Link::getTraceContext)
				.extracting((linked) -> linked.spanId())
				.containsExactly(second.context().spanId(), third.context().spanId());
		});
	}

	@Test
	void aRetryShouldStayInTheFirstAddsTraceAndSayItsAttempt() {
		this.runner.run((context) -> {
			RateLimitingQueue<Object> queue = context.getBean(WorkQueueRegistry.class).getOrCreateQueue("orders");
			Span request = addInSpan(this.tracer, queue, "fails-once", "request");
			await().until(() -> processings(this.tracer, "orders").size() == 2);
			List<SimpleSpan> attempts = processings(this.tracer, "orders");
			assertThat(attempts).allSatisfy((attempt) -> {
				assertThat(attempt.getTraceId()).isEqualTo(request.context().traceId());
				assertThat(attempt.getParentId()).isEqualTo(request.context().spanId());
			});
			assertThat(attempts)
				.extracting((attempt) -> attempt.getTags().get(WorkQueueTracingObservationHandler.ATTEMPT))
				.containsExactly("1", "2");
			assertThat(attempts).extracting((attempt) -> attempt.getTags().get("outcome"))
				.containsExactly("error", "success");
		});
	}

	@Test
	void anAddWithoutACurrentSpanShouldStartANewTrace() {
		this.runner.run((context) -> {
			context.getBean(WorkQueueRegistry.class).getOrCreateQueue("orders").add("ok");
			await().until(() -> processings(this.tracer, "orders").size() == 1);
			SimpleSpan processing = processings(this.tracer, "orders").get(0);
			assertThat(processing.getParentId()).isNullOrEmpty();
			assertThat(processing.getTags()).doesNotContainKey(WorkQueueTracingObservationHandler.ATTEMPT);
		});
	}

	@Test
	void theApplicationsCaptureShouldReplaceTheTracers() {
		TraceCapture own = () -> "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01";
		this.runner.withBean(TraceCapture.class, () -> own).run((context) -> {
			assertThat(context.getBean(TraceCapture.class)).isSameAs(own);
			context.getBean(WorkQueueRegistry.class).getOrCreateQueue("orders").add("ok");
			await().until(() -> processings(this.tracer, "orders").size() == 1);
			SimpleSpan processing = processings(this.tracer, "orders").get(0);
			assertThat(processing.getTraceId()).isEqualTo("4bf92f3577b34da6a3ce929d0e0e4736");
			assertThat(processing.getParentId()).isEqualTo("00f067aa0ba902b7");
		});
	}

	@Test
	void withoutATracerNothingShouldBeCaptured() {
		new ApplicationContextRunner()
			.withConfiguration(AutoConfigurations.of(ObservationAutoConfiguration.class,
					WorkQueueObservationAutoConfiguration.class, WorkQueueTracingAutoConfiguration.class,
					WorkQueueAutoConfiguration.class))
			.withPropertyValues("workqueue.observation.enabled=true")
			.run((context) -> assertThat(context).hasSingleBean(ObservingWorkObserver.class)
				.doesNotHaveBean(TraceCapture.class)
				.doesNotHaveBean(WorkQueueTracingObservationHandler.class));
	}

	@Test
	void withoutMicrometerTracingOnTheClassPathNothingShouldBeCaptured() {
		this.runner.withClassLoader(new FilteredClassLoader("io.micrometer.tracing"))
			.run((context) -> assertThat(context).hasSingleBean(ObservingWorkObserver.class)
				.doesNotHaveBean(TraceCapture.class)
				.doesNotHaveBean(WorkQueueTracingObservationHandler.class));
	}

	@Test
	void withObservationsOffNothingShouldBeCaptured() {
		this.runner.withPropertyValues("workqueue.observation.enabled=false")
			.run((context) -> assertThat(context).doesNotHaveBean(TraceCapture.class)
				.doesNotHaveBean(WorkQueueTracingObservationHandler.class));
	}

	@Test
	void theNoopTracerShouldLeaveQueuesWithoutCapture() {
		new ApplicationContextRunner()
			.withConfiguration(AutoConfigurations.of(ObservationAutoConfiguration.class,
					WorkQueueObservationAutoConfiguration.class, WorkQueueTracingAutoConfiguration.class,
					WorkQueueAutoConfiguration.class))
			.withBean(Tracer.class, () -> Tracer.NOOP)
			.withPropertyValues("workqueue.observation.enabled=true")
			.run((context) -> {
				assertThat(context.getBean(TraceCapture.class))
					.isSameAs(WorkQueueTracingAutoConfiguration.NoTraceCapture.INSTANCE);
			});
	}

	@Configuration(proxyBeanMethods = false)
	static class Worker {

		final CountDownLatch blocking = new CountDownLatch(1);

		final CountDownLatch release = new CountDownLatch(1);

		private volatile boolean failed;

		@QueueWorker("orders")
		void handle(String item) throws InterruptedException {
			if (item.equals("block")) {
				this.blocking.countDown();
				this.release.await(10, TimeUnit.SECONDS);
			}
			if (item.equals("fails-once") && !this.failed) {
				this.failed = true;
				throw new IllegalStateException("first attempt fails");
			}
		}

	}

}
