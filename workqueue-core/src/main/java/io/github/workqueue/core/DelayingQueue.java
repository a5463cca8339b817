package io.github.workqueue.core;

import java.time.Duration;
import java.util.List;

/**
 * A {@link WorkQueue} that can add an item after a delay.
 *
 * <p>
 * Waiting items live outside the queue until they are ready:
 * <ul>
 * <li>{@code addAfter} never blocks and never drops an item, however many are
 * waiting.</li>
 * <li>There is at most one waiting entry per item: a second {@code addAfter} keeps the
 * earlier ready time.</li>
 * <li>{@link #add(Object)} of a waiting item makes it ready now and removes its waiting
 * entry.</li>
 * <li>Items become ready in ready-time order, equal ready times in the order they were
 * first added.</li>
 * <li>Shutdown discards the waiting items; they are counted as dropped and logged.</li>
 * </ul>
 * Time is read and timers are set through the queue's {@link Clock}.
 *
 * <p>
 * <b>Concurrency.</b> Thread-safe, like {@link WorkQueue}.
 *
 * @param <T> the item type
 */
public interface DelayingQueue<T> extends WorkQueue<T> {

	/**
	 * Adds the item once the delay has passed; a delay of zero or less is
	 * {@link #add(Object)}. Ignored (and counted as dropped) once the queue is shutting
	 * down.
	 * @param item the item, not null
	 * @param delay how long to wait before adding
	 */
	void addAfter(T item, Duration delay);

	/**
	 * Returns the number of items waiting for their delay. Informational.
	 * @return the number of waiting items
	 */
	int waitingLen();

	/**
	 * Returns the waiting items that shutdown discarded, in ready-time order: the ones
	 * still waiting at the moment the queue shut down (an item whose time had come by
	 * then was queued instead). Empty before shutdown.
	 * @return the discarded items
	 */
	List<T> discardedAtShutdown();

}
