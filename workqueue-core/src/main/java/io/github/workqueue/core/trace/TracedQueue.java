package io.github.workqueue.core.trace;

import java.util.Optional;

/**
 * A queue that keeps the trace contexts of each key's adds for the processing they cause
 * (both backends, when built with a {@link TraceCapture}).
 *
 * @param <T> the item type
 */
public interface TracedQueue<T> {

	/**
	 * Returns the trace contexts of the adds that the calling thread's processing of the
	 * item serves: those made since the item's previous processing began (an add while a
	 * processing runs belongs to the next one). Ask from the thread that took the item,
	 * between its take and its {@code done}.
	 * @param item the item
	 * @return the adds' contexts, or empty if none carried one or the item is not being
	 * processed here
	 */
	Optional<AddTraces> addTraces(T item);

}
