package io.github.workqueue.autoconfigure.observation;

import io.micrometer.observation.Observation;
import org.jspecify.annotations.Nullable;

/**
 * What an observation of one processing knows: the queue, the item and, once the worker
 * method returned or threw, the outcome.
 *
 * <p>
 * <b>Concurrency.</b> Used by the worker thread that processes the item, one processing
 * per context.
 */
public class WorkQueueObservationContext extends Observation.Context {

	private final String queueName;

	private final Object item;

	private @Nullable String outcome;

	public WorkQueueObservationContext(String queueName, Object item) {
		this.queueName = queueName;
		this.item = item;
	}

	/** The queue's name. */
	public String getQueueName() {
		return this.queueName;
	}

	/** The item processed. */
	public Object getItem() {
		return this.item;
	}

	/**
	 * How the processing ended, {@code success} or {@code error}; {@code null} while it
	 * runs.
	 */
	public @Nullable String getOutcome() {
		return this.outcome;
	}

	void setOutcome(String outcome) {
		this.outcome = outcome;
	}

}
