package io.github.workqueue.autoconfigure.observation;

import io.micrometer.tracing.TraceContext;
import io.micrometer.tracing.Tracer;
import org.jspecify.annotations.Nullable;

/**
 * Writes and reads the W3C {@code traceparent} form in which a queue keeps an add's trace
 * context ({@code 00-<32 hex trace id>-<16 hex span id>-<2 hex flags>}), whatever
 * propagation the application configured: the form is the queue's, stored beside keys on
 * Redis and read by instances whose settings may differ.
 *
 * <p>
 * <b>Concurrency.</b> Stateless.
 */
final class W3cTraceContexts {

	private static final String SIXTEEN_ZEROS = "0000000000000000";

	private W3cTraceContexts() {
	}

	/**
	 * Writes a context; a 64-bit trace id (Brave's, when so configured) is padded with
	 * zeros to 128 bits, as W3C prescribes.
	 * @param context the context
	 * @return its {@code traceparent} form, or null if its ids are not hex of the W3C
	 * lengths
	 */
	static @Nullable String format(TraceContext context) {
		String traceId = context.traceId();
		String spanId = context.spanId();
		if (traceId.length() == 16) {
			traceId = SIXTEEN_ZEROS + traceId;
		}
		if (traceId.length() != 32 || spanId.length() != 16 || !isHex(traceId) || !isHex(spanId)) {
			return null;
		}
		return "00-" + traceId + "-" + spanId + (Boolean.TRUE.equals(context.sampled()) ? "-01" : "-00");
	}

	/**
	 * Reads a context written by {@link #format(TraceContext)} or any W3C
	 * {@code traceparent}; a trace id whose high half is zero is given to the tracer as
	 * 64 bits, which every bridge reads.
	 * @param tracer makes the tracer's own context
	 * @param traceparent the stored form
	 * @return the context, or null if the form is not one (all-zero ids included)
	 */
	static @Nullable TraceContext parse(Tracer tracer, String traceparent) {
		if (traceparent.length() != 55 || traceparent.charAt(2) != '-' || traceparent.charAt(35) != '-'
				|| traceparent.charAt(52) != '-') {
			return null;
		}
		String traceId = traceparent.substring(3, 35);
		String spanId = traceparent.substring(36, 52);
		String flags = traceparent.substring(53);
		if (!isHex(traceparent.substring(0, 2)) || !isHex(traceId) || !isHex(spanId) || !isHex(flags) || isZero(traceId)
				|| isZero(spanId)) {
			return null;
		}
		if (traceId.startsWith(SIXTEEN_ZEROS)) {
			traceId = traceId.substring(16);
		}
		boolean sampled = (Character.digit(flags.charAt(1), 16) & 1) == 1;
		return tracer.traceContextBuilder().traceId(traceId).spanId(spanId).sampled(sampled).build();
	}

	private static boolean isHex(String text) {
		for (int i = 0; i < text.length(); i++) {
			char c = text.charAt(i);
			if (!((c >= '0' && c <= '9') || (c >= 'a' && c <= 'f'))) {
				return false;
			}
		}
		return true;
	}

	private static boolean isZero(String hex) {
		for (int i = 0; i < hex.length(); i++) {
			if (hex.charAt(i) != '0') {
				return false;
			}
		}
		return true;
	}

}
