package io.github.workqueue.autoconfigure.observation;

import io.micrometer.tracing.Tracer;

import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.annotation.Order;

import io.github.workqueue.autoconfigure.RedisQueueBuilderCustomizer;
import io.github.workqueue.autoconfigure.WorkQueueAutoConfiguration;
import io.github.workqueue.autoconfigure.WorkQueueBuilderCustomizer;
import io.github.workqueue.core.trace.TraceCapture;
import io.github.workqueue.redis.RedisQueueBuilder;

/**
 * Traces from an add to the processing it caused, when Micrometer Tracing has a real
 * tracer (Boot's no-op tracer is not one) and {@code workqueue.observation.enabled=true}:
 * every queue, in memory or on Redis, keeps each add's trace context with its key
 * ({@link TraceCapture}, replaceable), and the span of each processing continues it
 * ({@link WorkQueueTracingObservationHandler}, replaceable). Without it queues read and
 * store no context.
 */
@AutoConfiguration(after = WorkQueueObservationAutoConfiguration.class, before = WorkQueueAutoConfiguration.class,
		afterName = { "org.springframework.boot.micrometer.tracing.autoconfigure.MicrometerTracingAutoConfiguration",
				"org.springframework.boot.micrometer.tracing.autoconfigure.NoopTracerAutoConfiguration",
				"org.springframework.boot.micrometer.tracing.brave.autoconfigure.BraveAutoConfiguration",
				"org.springframework.boot.micrometer.tracing.opentelemetry.autoconfigure.OpenTelemetryTracingAutoConfiguration" })
@ConditionalOnClass(Tracer.class)
@ConditionalOnBean(Tracer.class)
@ConditionalOnProperty(name = "workqueue.observation.enabled", havingValue = "true")
public final class WorkQueueTracingAutoConfiguration {

	/**
	 * Before Boot's tracing handlers (the default one takes every context), after none of
	 * them for other contexts: it supports only the processing's.
	 */
	@Bean
	@Order(0)
	@ConditionalOnMissingBean
	WorkQueueTracingObservationHandler workQueueTracingObservationHandler(Tracer tracer) {
		return new WorkQueueTracingObservationHandler(tracer);
	}

	@Bean
	@ConditionalOnMissingBean
	TraceCapture workQueueTraceCapture(Tracer tracer) {
		return (tracer != Tracer.NOOP) ? new MicrometerTraceCapture(tracer) : NoTraceCapture.INSTANCE;
	}

	@Bean
	WorkQueueBuilderCustomizer workQueueTraceCaptureCustomizer(TraceCapture capture) {
		return (name, builder) -> {
			if (capture != NoTraceCapture.INSTANCE) {
				builder.traceCapture(capture);
			}
		};
	}

	@Configuration(proxyBeanMethods = false)
	@ConditionalOnClass(RedisQueueBuilder.class)
	static class RedisTraceCapture {

		@Bean
		RedisQueueBuilderCustomizer workQueueRedisTraceCaptureCustomizer(TraceCapture capture) {
			return (name, builder) -> {
				if (capture != NoTraceCapture.INSTANCE) {
					builder.traceCapture(capture);
				}
			};
		}

	}

	/** Boot's no-op tracer: queues are left without a capture, at no cost. */
	enum NoTraceCapture implements TraceCapture {

		INSTANCE;

		@Override
		public String currentContext() {
			return null;
		}

	}

}
