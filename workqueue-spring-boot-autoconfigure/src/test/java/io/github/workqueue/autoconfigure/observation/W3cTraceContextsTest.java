package io.github.workqueue.autoconfigure.observation;

import io.micrometer.tracing.TraceContext;
import io.micrometer.tracing.test.simple.SimpleTracer;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

class W3cTraceContextsTest {

	private final SimpleTracer tracer = new SimpleTracer();

	private TraceContext context(String traceId, String spanId, Boolean sampled) {
		return this.tracer.traceContextBuilder().traceId(traceId).spanId(spanId).sampled(sampled).build();
	}

	@Test
	void aContextShouldBeWrittenInTraceparentFormAndReadBack() {
		String traceparent = W3cTraceContexts
			.format(context("4bf92f3577b34da6a3ce929d0e0e4736", "00f067aa0ba902b7", true));
		assertThat(traceparent).isEqualTo("00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01");
		TraceContext read = W3cTraceContexts.parse(this.tracer, traceparent);
		assertThat(read.traceId()).isEqualTo("4bf92f3577b34da6a3ce929d0e0e4736");
		assertThat(read.spanId()).isEqualTo("00f067aa0ba902b7");
		assertThat(read.sampled()).isTrue();
	}

	@Test
	void aSixtyFourBitTraceIdShouldBePaddedAndGivenBackAsItWas() {
		String traceparent = W3cTraceContexts.format(context("a3ce929d0e0e4736", "00f067aa0ba902b7", null));
		assertThat(traceparent).isEqualTo("00-0000000000000000a3ce929d0e0e4736-00f067aa0ba902b7-00");
		TraceContext read = W3cTraceContexts.parse(this.tracer, traceparent);
		assertThat(read.traceId()).isEqualTo("a3ce929d0e0e4736");
		assertThat(read.sampled()).isFalse();
	}

	@Test
	void whatIsNotATraceparentShouldBeRefused() {
		assertThat(W3cTraceContexts.format(context("xyz", "00f067aa0ba902b7", true))).isNull();
		assertThat(W3cTraceContexts.parse(this.tracer, "c1")).isNull();
		assertThat(W3cTraceContexts.parse(this.tracer, "00-00000000000000000000000000000000-00f067aa0ba902b7-01"))
			.as("all-zero trace id")
			.isNull();
		assertThat(W3cTraceContexts.parse(this.tracer, "00-4bf92f3577b34da6a3ce929d0e0e4736-0000000000000000-01"))
			.as("all-zero span id")
			.isNull();
		assertThat(W3cTraceContexts.parse(this.tracer, "00-4BF92F3577B34DA6A3CE929D0E0E4736-00f067aa0ba902b7-01"))
			.as("upper case")
			.isNull();
		assertThat(W3cTraceContexts.parse(this.tracer, "00_4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01"))
			.isNull();
	}

}
