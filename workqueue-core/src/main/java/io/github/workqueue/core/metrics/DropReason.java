package io.github.workqueue.core.metrics;

/**
 * Why a queue dropped an item that was given to it.
 */
public enum DropReason {

	/**
	 * {@code add} or {@code addAfter} was called after the queue started shutting down.
	 */
	ADD_AFTER_SHUTDOWN("add_after_shutdown"),

	/** The item was waiting for its delay when the queue shut down. */
	WAITING_AT_SHUTDOWN("waiting_at_shutdown"),

	/**
	 * {@code remove} took the item out of the queue while it was queued or waiting, or
	 * cleared its pending re-add while it was processing.
	 */
	REMOVED("removed");

	private final String tagValue;

	DropReason(String tagValue) {
		this.tagValue = tagValue;
	}

	/**
	 * Returns the reason as a metric label value.
	 * @return the lower-case label value
	 */
	public String tagValue() {
		return this.tagValue;
	}

}
