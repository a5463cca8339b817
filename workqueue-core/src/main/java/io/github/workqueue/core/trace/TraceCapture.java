package io.github.workqueue.core.trace;

import org.jspecify.annotations.Nullable;

/**
 * Reads the caller's current trace context at each add, for a queue built with one
 * ({@code WorkQueueBuilder.traceCapture}, the Redis queue's builder alike); the Spring
 * Boot starter installs one on Micrometer Tracing when a {@code Tracer} bean exists. A
 * queue without one reads nothing and stores nothing.
 *
 * <p>
 * <b>Contract.</b> Called on the adding thread, before the queue's lock or round trip,
 * once per add: it must be quick, must not block and must not throw. A value the queue
 * does not accept ({@link AddTraces#accepts(String)}: empty, longer than
 * {@value AddTraces#MAX_CONTEXT_LENGTH} characters, or with whitespace) is ignored.
 */
@FunctionalInterface
public interface TraceCapture {

	/**
	 * Returns the calling thread's current trace context.
	 * @return the context in W3C {@code traceparent} form
	 * ({@code 00-<trace id>-<span id>-<flags>}), or null when no span is current
	 */
	@Nullable String currentContext();

}
