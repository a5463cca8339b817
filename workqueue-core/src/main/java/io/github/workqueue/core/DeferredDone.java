package io.github.workqueue.core;

/**
 * A queue whose backend can be told that a processing ended without the caller waiting
 * for the backend's answer (group commit): the shared Redis queue. The worker container
 * uses it; code that needs the outcome at once calls {@code done}.
 *
 * @param <T> the item type
 */
public interface DeferredDone<T> {

	/**
	 * Ends the calling thread's processing of the item, as {@code done} does, but returns
	 * once the request is on its way: it reaches the backend before anything this
	 * instance asks later for the same items, and its outcome is logged and counted when
	 * it comes.
	 * @param item the item
	 */
	void doneWithoutWaiting(T item);

}
