package io.github.workqueue.spring.internal;

import java.util.List;

import org.jspecify.annotations.Nullable;

/**
 * What a {@code @QueueWorker} annotation declares, with placeholders resolved.
 *
 * @param queueName the queue's name
 * @param method the method to call
 * @param workers the worker count given on the annotation, or null to use the configured
 * one
 * @param notRetryable exception types given on the annotation
 */
record QueueWorkerEndpoint(String queueName, QueueWorkerMethod method, @Nullable Integer workers,
		List<Class<? extends Throwable>> notRetryable) {

}
