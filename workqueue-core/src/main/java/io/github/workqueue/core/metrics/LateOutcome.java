package io.github.workqueue.core.metrics;

/**
 * The final outcome of a {@code done} of a shared (Redis) queue that got no answer from
 * the backend in time: what the instance learned when it asked again.
 */
public enum LateOutcome {

	/** The done had been, or was then, applied: the item is not delivered again. */
	ACCEPTED("accepted"),

	/** The lease had expired: the item was delivered again. */
	REJECTED("rejected"),

	/** The backend never answered while it could still tell. */
	NEVER_KNOWN("never_known");

	private final String tagValue;

	LateOutcome(String tagValue) {
		this.tagValue = tagValue;
	}

	/**
	 * Returns the outcome as a metric label value.
	 * @return the lower-case label value
	 */
	public String tagValue() {
		return this.tagValue;
	}

}
