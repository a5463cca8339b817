package io.github.workqueue.spring;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

import org.springframework.aot.hint.annotation.Reflective;

import io.github.workqueue.spring.internal.QueueWorkerReflectiveProcessor;

/**
 * Makes a bean method the worker of a queue: worker threads take items from the queue and
 * call the method with each, one item per call, never the same item on two threads at
 * once.
 *
 * <p>
 * The method takes exactly one parameter, the item (an item of another type is given up,
 * not retried), and returns {@code void} or a {@link WorkResult}. After a normal return
 * the item is forgotten by the rate limiter (or requeued as the result asks); after an
 * exception it is retried with the queue's rate limiter until {@code max-retries}, unless
 * the exception is not retryable; an item given up is logged, counted and published as an
 * {@link ItemGivenUpEvent}.
 *
 * <p>
 * A queue has at most one worker method. A queue not declared under
 * {@code workqueue.queues} is made from {@code workqueue.defaults}.
 */
@Target(ElementType.METHOD)
@Retention(RetentionPolicy.RUNTIME)
@Documented
@Reflective(QueueWorkerReflectiveProcessor.class)
public @interface QueueWorker {

	/**
	 * The queue's name; placeholders are resolved.
	 * @return the queue name
	 */
	String value();

	/**
	 * The number of worker threads, overriding {@code workqueue.queues.<name>.workers};
	 * placeholders are resolved. Empty to use the configured number.
	 * @return the worker count, or empty
	 */
	String workers() default "";

	/**
	 * Exception types that are never retried, in addition to the configured
	 * {@code not-retryable} ones; subclasses count too.
	 * @return the exception types
	 */
	Class<? extends Throwable>[] notRetryable() default {};

}
