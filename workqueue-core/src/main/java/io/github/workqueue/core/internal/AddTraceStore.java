package io.github.workqueue.core.internal;

import java.util.HashMap;
import java.util.concurrent.ConcurrentHashMap;

import org.jspecify.annotations.Nullable;

import io.github.workqueue.core.trace.AddTraces;

/**
 * The trace contexts of a queue's adds, kept beside its entries rather than in them, so
 * that a queue without tracing pays no byte per key for them: made only for a queue with
 * a capture hook ({@link ItemStates#traceCapture}).
 *
 * <p>
 * <b>Concurrency.</b> {@link #pending} is guarded by the owning queue's lock.
 * {@link #processing} is written under that lock, by the take and the done of an item,
 * and read without it by the thread that took the item, between the two: that thread's
 * own take wrote what it reads.
 *
 * <p>
 * <b>Invariants</b>, under the lock: an item is in {@link #pending} only while it is
 * dirty or waiting and carried a context since its last take (a take, a remove and the
 * shutdown's discard of its waiting adds empty it); it is in {@link #processing} only
 * from the take that found contexts to its done.
 *
 * @param <T> the item type
 */
final class AddTraceStore<T> {

	/** Each item's contexts since its last take, for its next processing. */
	private final HashMap<T, AddTraces> pending = new HashMap<>();

	/** The contexts each current processing serves. */
	private final ConcurrentHashMap<T, AddTraces> processing = new ConcurrentHashMap<>();

	/** An add of the item carried the context. Under the lock. */
	void added(T item, String context) {
		this.pending.put(item, AddTraces.plus(this.pending.get(item), context));
	}

	/** The item was taken: its contexts go to the processing. Under the lock. */
	void taken(T item) {
		AddTraces traces = this.pending.remove(item);
		if (traces != null) {
			this.processing.put(item, traces);
		}
	}

	/** The item's processing ended. Under the lock. */
	void done(T item) {
		this.processing.remove(item);
	}

	/**
	 * The item's pending adds were removed: their contexts go with them. Under the lock.
	 */
	void removed(T item) {
		this.pending.remove(item);
	}

	/** The contexts of the item's current processing; by the thread that took it. */
	@Nullable AddTraces ofProcessing(T item) {
		return this.processing.get(item);
	}

}
