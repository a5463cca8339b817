package io.github.workqueue.spring;

/**
 * Hears when a worker starts and ends processing an item, for whoever keeps state per
 * item that must live exactly as long as the item's processing is pending (a Kubernetes
 * informer keeps a deleted object's last state until the key is processed). Every bean of
 * this type hears every container.
 * <p>
 * Both calls come on the worker's thread, {@link #ended} before the item's {@code done}:
 * until then no other worker can take the item, so the two calls of one processing never
 * interleave with another processing's of the same item. They must be quick and must not
 * throw (what they throw is logged and ignored).
 */
public interface ItemProcessingListener {

	/**
	 * The worker method is about to be called with the item.
	 * @param queueName the queue's name
	 * @param item the item
	 */
	default void started(String queueName, Object item) {
	}

	/**
	 * The item's processing ended, its outcome handled, before its {@code done}.
	 * @param queueName the queue's name
	 * @param item the item
	 * @param requeued whether the container added the item again (a retry after a
	 * failure, or a result that asked for it); an add by anyone else while the item was
	 * processing is not counted here
	 */
	default void ended(String queueName, Object item, boolean requeued) {
	}

	/**
	 * The item's processing ended, its outcome handled, before its {@code done}; by
	 * default calls {@link #ended(String, Object, boolean)}. Override this one to know
	 * what became of the item (succeeded, requeued, retried after which delay, given up
	 * and why).
	 * @param queueName the queue's name
	 * @param item the item
	 * @param outcome what became of the item
	 */
	default void ended(String queueName, Object item, ProcessingOutcome outcome) {
		ended(queueName, item, outcome.addedAgain());
	}

}
