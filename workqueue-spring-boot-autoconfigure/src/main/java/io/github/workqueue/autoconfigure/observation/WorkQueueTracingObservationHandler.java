package io.github.workqueue.autoconfigure.observation;

import io.micrometer.tracing.Link;
import io.micrometer.tracing.Span;
import io.micrometer.tracing.TraceContext;
import io.micrometer.tracing.Tracer;
import io.micrometer.tracing.handler.TracingObservationHandler;

import io.github.workqueue.core.trace.AddTraces;

/**
 * Makes the span of each processing ({@code workqueue.process}) continue the trace of the
 * adds it serves: a {@link Span.Kind#CONSUMER} span whose parent is the first add's span,
 * with a link to each later add that deduplication absorbed (at most
 * {@value AddTraces#MAX_LINKS}; {@code workqueue.links.dropped} counts the rest), and
 * {@code workqueue.attempt} (1 for a first processing, 2 for the first retry...). A
 * processing whose adds carried no context is a span of the current trace, or a new one,
 * as the default handler would make it.
 *
 * <p>
 * The first add is the parent rather than a link because it is the cause: the request
 * that made the key queued is the trace an operator opens to ask why its effect took 40
 * s, and the processing sits there, after the wait. Later adds did not make the key run
 * (it was queued already) but were served by this processing: links, which trace viewers
 * show without making each of those traces hold a processing it did not cause.
 *
 * <p>
 * <b>Concurrency.</b> Thread-safe: stateless apart from the tracer.
 */
public class WorkQueueTracingObservationHandler implements TracingObservationHandler<WorkQueueObservationContext> {

	/** The span tag naming the attempt. */
	public static final String ATTEMPT = "workqueue.attempt";

	/** The span tag counting absorbed adds beyond the links kept. */
	public static final String LINKS_DROPPED = "workqueue.links.dropped";

	private final Tracer tracer;

	/**
	 * @param tracer the application's tracer
	 */
	public WorkQueueTracingObservationHandler(Tracer tracer) {
		this.tracer = tracer;
	}

	@Override
	public void onStart(WorkQueueObservationContext context) {
		Span.Builder builder = this.tracer.spanBuilder().kind(Span.Kind.CONSUMER);
		AddTraces traces = context.getAddTraces();
		TraceContext parent = (traces != null) ? W3cTraceContexts.parse(this.tracer, traces.parent()) : null;
		if (parent != null) {
			builder.setParent(parent);
		}
		else {
			Span parentSpan = getParentSpan(context);
			if (parentSpan != null) {
				builder.setParent(parentSpan.context());
			}
		}
		if (traces != null) {
			for (String link : traces.links()) {
				TraceContext linked = W3cTraceContexts.parse(this.tracer, link);
				if (linked != null) {
					builder.addLink(new Link(linked));
				}
			}
			if (traces.droppedLinks() > 0) {
				builder.tag(LINKS_DROPPED, traces.droppedLinks());
			}
			builder.tag(ATTEMPT, context.getAttempt());
		}
		getTracingContext(context).setSpan(builder.start());
	}

	@Override
	public void onError(WorkQueueObservationContext context) {
		Throwable error = context.getError();
		if (error != null) {
			getRequiredSpan(context).error(error);
		}
	}

	@Override
	public void onStop(WorkQueueObservationContext context) {
		Span span = getRequiredSpan(context);
		tagSpan(context, span);
		span.name(getSpanName(context));
		endSpan(context, span);
	}

	@Override
	public boolean supportsContext(io.micrometer.observation.Observation.Context context) {
		return context instanceof WorkQueueObservationContext;
	}

	@Override
	public Tracer getTracer() {
		return this.tracer;
	}

}
