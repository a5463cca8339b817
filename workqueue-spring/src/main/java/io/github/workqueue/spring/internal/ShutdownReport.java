package io.github.workqueue.spring.internal;

import java.util.List;

import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;

import org.springframework.context.ApplicationEventPublisher;

import io.github.workqueue.spring.ItemsUnfinishedAtShutdownEvent;
import io.github.workqueue.spring.QueueWorkerContainer;

/**
 * Tells what a container's shutdown left unfinished: one WARN line that names at most 20
 * items of each kind (in flight, queued, waiting for a delay) and says how many it left
 * out, and the {@link ItemsUnfinishedAtShutdownEvent} that names them all. Nothing when
 * every item was finished.
 *
 * <p>
 * <b>Concurrency.</b> Stateless; called once per container, by the thread that stops it.
 */
final class ShutdownReport {

	private static final Log logger = LogFactory.getLog(QueueWorkerContainer.class);

	/** How many items of each kind the log line names. */
	private static final int LOGGED_ITEMS = 20;

	private ShutdownReport() {
	}

	/**
	 * Logs and publishes what is unfinished.
	 * @return how many items are unfinished
	 */
	static long report(String queueName, List<Object> inFlight, List<Object> queued, List<Object> waiting,
			ApplicationEventPublisher events) {
		long unfinished = (long) inFlight.size() + queued.size() + waiting.size();
		if (unfinished > 0) {
			long left = Math.max(0, inFlight.size() - LOGGED_ITEMS) + Math.max(0, queued.size() - LOGGED_ITEMS)
					+ Math.max(0, waiting.size() - LOGGED_ITEMS);
			logger.warn("Queue '" + queueName + "' shut down with " + unfinished + " unfinished item(s): "
					+ inFlight.size() + " in flight " + sample(inFlight) + ", " + queued.size() + " queued "
					+ sample(queued) + ", " + waiting.size() + " waiting for a delay " + sample(waiting) + "; "
					+ ((left > 0) ? left + " not named here; " : "")
					+ "all are in the ItemsUnfinishedAtShutdownEvent published now");
			events.publishEvent(new ItemsUnfinishedAtShutdownEvent(queueName, inFlight, queued, waiting));
		}
		return unfinished;
	}

	/** The first items of a list, for a log line that stays bounded. */
	private static String sample(List<Object> items) {
		if (items.size() <= LOGGED_ITEMS) {
			return items.toString();
		}
		return items.subList(0, LOGGED_ITEMS)
			.toString()
			.replaceFirst("]$", ", ... " + (items.size() - LOGGED_ITEMS) + " more]");
	}

}
