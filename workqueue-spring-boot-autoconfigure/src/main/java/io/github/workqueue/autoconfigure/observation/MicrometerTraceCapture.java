package io.github.workqueue.autoconfigure.observation;

import io.micrometer.tracing.Span;
import io.micrometer.tracing.Tracer;
import org.jspecify.annotations.Nullable;

import io.github.workqueue.core.trace.TraceCapture;

/**
 * Reads the adding thread's current span from Micrometer Tracing, in W3C
 * {@code traceparent} form; nothing when no span is current.
 *
 * <p>
 * <b>Concurrency.</b> Thread-safe: the tracer keeps the current span per thread.
 */
public final class MicrometerTraceCapture implements TraceCapture {

	private final Tracer tracer;

	/**
	 * @param tracer the application's tracer
	 */
	public MicrometerTraceCapture(Tracer tracer) {
		this.tracer = tracer;
	}

	@Override
	public @Nullable String currentContext() {
		Span span = this.tracer.currentSpan();
		return (span != null) ? W3cTraceContexts.format(span.context()) : null;
	}

}
