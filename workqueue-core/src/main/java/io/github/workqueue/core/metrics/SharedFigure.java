package io.github.workqueue.core.metrics;

/**
 * A queue-wide figure of a queue shared by several instances (on Redis), read from the
 * shared state rather than counted by one instance: every instance reports the same
 * value.
 */
public enum SharedFigure {

	/**
	 * Items ready and not taken; per priority through
	 * {@link MetricsProvider#newSharedDepthMetric(String, int)}.
	 */
	DEPTH("depth"),

	/** Items waiting for their ready time. */
	WAITING("waiting"),

	/** Items under a lease, on any instance. */
	IN_FLIGHT("in.flight"),

	/**
	 * Items set aside because their leases kept expiring or they could not be decoded.
	 */
	PARKED("parked"),

	/** Items put back because their lease expired, since the queue was created. */
	REDELIVERIES("redeliveries"),

	/**
	 * Items kept as dead letters: given up by their workers, or {@link #PARKED parked}.
	 */
	DEAD_LETTERS("dead.letters");

	private final String meterSuffix;

	SharedFigure(String meterSuffix) {
		this.meterSuffix = meterSuffix;
	}

	/**
	 * Returns the dotted suffix of the figure's meter name.
	 * @return the suffix, such as {@code in.flight}
	 */
	public String meterSuffix() {
		return this.meterSuffix;
	}

}
