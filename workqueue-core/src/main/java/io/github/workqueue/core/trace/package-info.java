/**
 * Trace contexts that travel with a key from its adds to the processing they cause: the
 * capture hook a tracing integration installs ({@link TraceCapture}), what a processing
 * learns of its adds ({@link AddTraces}, from a {@link TracedQueue}), and how a retry
 * keeps its first add's trace ({@link TraceCarry}). Contexts are W3C {@code traceparent}
 * values; a queue without a capture hook stores none and pays nothing.
 */
@NullMarked
package io.github.workqueue.core.trace;

import org.jspecify.annotations.NullMarked;
