package io.github.workqueue.spring.internal;

import java.util.List;

import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;

import io.github.workqueue.spring.ItemProcessingListener;
import io.github.workqueue.spring.ProcessingOutcome;
import io.github.workqueue.spring.QueueWorkerContainer;

/**
 * The {@link ItemProcessingListener}s of the containers: each told in turn, what one
 * throws logged and ignored, so that a listener cannot fail a worker.
 *
 * <p>
 * <b>Concurrency.</b> Immutable; the listeners are called on the workers' threads.
 */
final class ItemListeners {

	static final ItemListeners NONE = new ItemListeners(List.of());

	private static final Log logger = LogFactory.getLog(QueueWorkerContainer.class);

	private final List<ItemProcessingListener> listeners;

	ItemListeners(List<ItemProcessingListener> listeners) {
		this.listeners = List.copyOf(listeners);
	}

	void started(String queueName, Object item) {
		for (ItemProcessingListener listener : this.listeners) {
			try {
				listener.started(queueName, item);
			}
			catch (RuntimeException ex) {
				logger.error("Queue '" + queueName + "': listener " + listener + " failed on the start of item '" + item
						+ "'", ex);
			}
		}
	}

	void ended(String queueName, Object item, ProcessingOutcome outcome) {
		for (ItemProcessingListener listener : this.listeners) {
			try {
				listener.ended(queueName, item, outcome);
			}
			catch (RuntimeException ex) {
				logger.error(
						"Queue '" + queueName + "': listener " + listener + " failed on the end of item '" + item + "'",
						ex);
			}
		}
	}

}
