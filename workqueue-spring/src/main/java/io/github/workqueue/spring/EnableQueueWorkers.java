package io.github.workqueue.spring;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

import org.springframework.context.annotation.Import;

import io.github.workqueue.spring.internal.QueueWorkerConfiguration;

/**
 * Runs the {@link QueueWorker} methods of the context's beans, with plain Spring
 * Framework; the Spring Boot starter does this by itself.
 *
 * <p>
 * Each worker takes items from the queue its {@link QueueResolver} bean gives, by default
 * the {@code RateLimitingQueue} bean named after the queue. The workers start with the
 * context and stop before it closes, finishing the items in flight within
 * {@link QueueWorkerOptions#shutdownTimeout()}. Using it twice, or with the starter,
 * changes nothing.
 */
@Target(ElementType.TYPE)
@Retention(RetentionPolicy.RUNTIME)
@Documented
@Import(QueueWorkerConfiguration.class)
public @interface EnableQueueWorkers {

}
