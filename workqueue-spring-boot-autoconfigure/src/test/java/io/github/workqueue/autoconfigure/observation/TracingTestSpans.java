package io.github.workqueue.autoconfigure.observation;

import java.util.List;

import io.micrometer.tracing.Span;
import io.micrometer.tracing.Tracer;
import io.micrometer.tracing.test.simple.SimpleSpan;
import io.micrometer.tracing.test.simple.SimpleTracer;

import io.github.workqueue.core.RateLimitingQueue;

/** What the tracing tests do and read, on either backend. */
public final class TracingTestSpans {

	private TracingTestSpans() {
	}

	/** Adds the item inside a span of its own, as a request handler would; returns it. */
	public static Span addInSpan(Tracer tracer, RateLimitingQueue<Object> queue, String item, String spanName) {
		Span span = tracer.nextSpan().name(spanName).start();
		Tracer.SpanInScope scope = tracer.withSpan(span);
		try {
			queue.add(item);
		}
		finally {
			scope.close();
			span.end();
		}
		return span;
	}

	/** The finished spans of the queue's processings, in the order they ended. */
	public static List<SimpleSpan> processings(SimpleTracer tracer, String queue) {
		return tracer.getSpans().stream().filter((span) -> (queue + " process").equals(span.getName())).toList();
	}

}
