package io.github.workqueue.spring;

import org.springframework.context.ApplicationEvent;

/**
 * Published when a worker gives an item up: it will not be retried and the rate limiter
 * has forgotten it. Listen with {@code @EventListener} to park, alert or repair.
 */
public class ItemGivenUpEvent extends ApplicationEvent {

	private static final long serialVersionUID = 1L;

	private final String queueName;

	private final transient Object item;

	private final GiveUpReason reason;

	private final int attempts;

	private final Throwable failure;

	/**
	 * Creates the event.
	 * @param queueName the queue's name, also the event's source
	 * @param item the item given up
	 * @param reason why
	 * @param attempts how many times the item was processed
	 * @param failure the last failure
	 */
	public ItemGivenUpEvent(String queueName, Object item, GiveUpReason reason, int attempts, Throwable failure) {
		super(queueName);
		this.queueName = queueName;
		this.item = item;
		this.reason = reason;
		this.attempts = attempts;
		this.failure = failure;
	}

	public String getQueueName() {
		return this.queueName;
	}

	public Object getItem() {
		return this.item;
	}

	public GiveUpReason getReason() {
		return this.reason;
	}

	/**
	 * Returns how many times the item was processed, the last included.
	 * @return the number of attempts
	 */
	public int getAttempts() {
		return this.attempts;
	}

	public Throwable getFailure() {
		return this.failure;
	}

	@Override
	public String toString() {
		return "ItemGivenUpEvent[queue=" + this.queueName + ", item=" + this.item + ", reason=" + this.reason
				+ ", attempts=" + this.attempts + ", failure=" + this.failure + "]";
	}

}
