package io.github.workqueue.core.trace;

import java.util.Objects;
import java.util.function.Supplier;

import org.jspecify.annotations.Nullable;

/**
 * Makes the adds a thread runs inside {@link #carrying(String, Supplier)} carry a given
 * trace context instead of the one their {@link TraceCapture} would read: how the worker
 * container keeps a retry, whose add runs after the failed processing's span ended, in
 * the trace of the add that caused the first attempt. Only a queue with a capture hook
 * consults it; on any other it changes nothing.
 *
 * <p>
 * <b>Concurrency.</b> The carried context is the calling thread's own, and is restored
 * when the supplier returns or throws.
 */
public final class TraceCarry {

	private static final ThreadLocal<@Nullable String> CARRIED = new ThreadLocal<>();

	private TraceCarry() {
	}

	/**
	 * Runs the adds with the given context carried.
	 * @param <R> what the adds return
	 * @param context the context in W3C {@code traceparent} form
	 * @param adds the adds
	 * @return what they returned
	 */
	public static <R> R carrying(String context, Supplier<R> adds) {
		Objects.requireNonNull(context, "context");
		String outer = CARRIED.get();
		CARRIED.set(context);
		try {
			return adds.get();
		}
		finally {
			if (outer != null) {
				CARRIED.set(outer);
			}
			else {
				CARRIED.remove();
			}
		}
	}

	/**
	 * Returns the context an add on this thread carries: the carried one, else what the
	 * capture reads, if the queue accepts it; none for a queue without a capture hook,
	 * which reads nothing.
	 * @param capture the queue's capture hook, or null
	 * @return the context, or null for none
	 */
	public static @Nullable String ofAdd(@Nullable TraceCapture capture) {
		if (capture == null) {
			return null;
		}
		String carried = CARRIED.get();
		String context = (carried != null) ? carried : capture.currentContext();
		return AddTraces.accepts(context) ? context : null;
	}

}
