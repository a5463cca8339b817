package io.github.workqueue.core.internal;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;

import org.jspecify.annotations.Nullable;

/**
 * The entry of a queue with metrics on: the item's timestamps and its place in the list
 * of items being processed. A queue without metrics uses the smaller {@link QueueEntry}.
 *
 * <p>
 * <b>Concurrency.</b> Guarded by the owning queue's lock, except that {@link #addedAt()}
 * may be read without it: {@link #addedAt} is written with opaque writes, so such a read
 * sees a whole value that the field had, not necessarily the latest.
 *
 * @param <T> the item type
 */
final class TimedQueueEntry<T> extends QueueEntry<T> {

	/** A timestamp that was not taken. */
	static final long NO_TIME = Long.MIN_VALUE;

	private static final VarHandle ADDED_AT;

	static {
		try {
			ADDED_AT = MethodHandles.lookup().findVarHandle(TimedQueueEntry.class, "addedAt", long.class);
		}
		catch (ReflectiveOperationException ex) {
			throw new ExceptionInInitializerError(ex);
		}
	}

	/**
	 * When the item became dirty, or {@link #NO_TIME} while it is not dirty and not
	 * ready; written through {@link #ADDED_AT}.
	 */
	@SuppressWarnings("FieldMayBeFinal")
	private long addedAt = NO_TIME;

	/** When its processing started. */
	long startedAt = NO_TIME;

	/** Neighbours in the list of items being processed. */
	@Nullable TimedQueueEntry<T> previousProcessing;

	@Nullable TimedQueueEntry<T> nextProcessing;

	TimedQueueEntry(T item, int state, int priority) {
		super(item, state, priority);
	}

	/** When the item became dirty; any thread (see the class comment). */
	long addedAt() {
		return (long) ADDED_AT.getOpaque(this);
	}

	/** Records when the item became dirty, or {@link #NO_TIME}; under the lock. */
	void addedAt(long nanos) {
		ADDED_AT.setOpaque(this, nanos);
	}

}
