package io.github.workqueue.kubernetes.internal;

import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;

import org.jspecify.annotations.Nullable;

import io.github.workqueue.kubernetes.ObjectKey;

/**
 * The last state of each deleted object, kept for the worker that cleans up after it,
 * until the key's processing ended with nothing pending: neither the container added the
 * key again (a retry, a requeue) nor an event of the informer did while it was processed.
 * At most {@link #MOST} states are kept (the oldest go first), for keys processed
 * elsewhere (another replica sharing a Redis queue) whose end this replica never hears.
 *
 * <p>
 * <b>Concurrency.</b> Thread-safe: both maps are guarded by this object's monitor. The
 * informer's handler and the workers (through the container's
 * {@code ItemProcessingListener}) call in; a key's start and end come on its worker's
 * thread, one processing at a time.
 *
 * @param <T> the type of the objects
 */
final class DeletedStates<T> {

	/** The most deleted states kept. */
	static final int MOST = 10_000;

	/** Guarded by this; in the order the deletions came. */
	private final LinkedHashMap<ObjectKey, T> states = new LinkedHashMap<>();

	/**
	 * The keys being processed now, each with whether the informer added it since its
	 * processing started. Guarded by this.
	 */
	private final Map<ObjectKey, Boolean> processing = new HashMap<>();

	synchronized Optional<T> get(ObjectKey key) {
		return Optional.ofNullable(this.states.get(key));
	}

	synchronized int size() {
		return this.states.size();
	}

	/**
	 * An object was deleted: its last state is kept (its key is added next, if at all).
	 */
	synchronized void deleted(ObjectKey key, T state) {
		this.states.remove(key);
		this.states.put(key, state);
		if (this.states.size() > MOST) {
			this.states.remove(this.states.keySet().iterator().next());
		}
	}

	/** An object of that key exists again. */
	synchronized void recreated(ObjectKey key) {
		this.states.remove(key);
	}

	/** The informer added the key to the queue. */
	synchronized void added(ObjectKey key) {
		this.processing.computeIfPresent(key, (k, addedSince) -> true);
	}

	/** A worker starts processing the key. */
	synchronized void started(ObjectKey key) {
		this.processing.put(key, false);
	}

	/**
	 * A worker ended processing the key, before its {@code done}: its deleted state goes
	 * unless the key is to be processed again.
	 * @param requeued whether the container added the key again
	 */
	synchronized void ended(ObjectKey key, boolean requeued) {
		@Nullable Boolean addedSince = this.processing.remove(key);
		if (!requeued && !Boolean.TRUE.equals(addedSince)) {
			this.states.remove(key);
		}
	}

}
