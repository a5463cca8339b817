package io.github.workqueue.spring;

import java.util.List;

import org.springframework.context.ApplicationEvent;

/**
 * Published when a queue's workers stopped with items left unfinished, so that the
 * application can persist them and add them again after a restart: in-memory queues keep
 * nothing. Published on the thread that stops the workers, once per queue.
 */
public class ItemsUnfinishedAtShutdownEvent extends ApplicationEvent {

	private static final long serialVersionUID = 1L;

	private final String queueName;

	private final transient List<Object> inFlight;

	private final transient List<Object> queued;

	private final transient List<Object> waiting;

	/**
	 * Creates the event.
	 * @param queueName the queue's name
	 * @param inFlight items whose processing had not finished when shutdown gave up
	 * @param queued items queued and never taken
	 * @param waiting items waiting for a delay (a retry's backoff or a
	 * {@code requeueAfter}), discarded by the queue's shutdown
	 */
	public ItemsUnfinishedAtShutdownEvent(String queueName, List<Object> inFlight, List<Object> queued,
			List<Object> waiting) {
		super(queueName);
		this.queueName = queueName;
		this.inFlight = List.copyOf(inFlight);
		this.queued = List.copyOf(queued);
		this.waiting = List.copyOf(waiting);
	}

	public String getQueueName() {
		return this.queueName;
	}

	/**
	 * Returns the items still being processed when shutdown gave up.
	 * @return the items
	 */
	public List<Object> getInFlight() {
		return this.inFlight;
	}

	/**
	 * Returns the items that were queued and never taken.
	 * @return the items
	 */
	public List<Object> getQueued() {
		return this.queued;
	}

	/**
	 * Returns the items that waited for a delay, in ready-time order.
	 * @return the items
	 */
	public List<Object> getWaiting() {
		return this.waiting;
	}

	@Override
	public String toString() {
		return "ItemsUnfinishedAtShutdownEvent[queue=" + this.queueName + ", inFlight=" + this.inFlight + ", queued="
				+ this.queued + ", waiting=" + this.waiting + "]";
	}

}
