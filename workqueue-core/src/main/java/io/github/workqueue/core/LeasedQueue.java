package io.github.workqueue.core;

import java.util.Optional;

/**
 * A queue whose processings hold leases (the Redis queue): a worker can ask for the lease
 * of the item it is processing.
 *
 * @param <T> the item type
 */
public interface LeasedQueue<T> {

	/**
	 * Returns the lease of the calling thread's processing of the item.
	 * @param item the item
	 * @return the lease, or empty if this process does not hold the item
	 */
	Optional<? extends ItemLease> lease(T item);

}
