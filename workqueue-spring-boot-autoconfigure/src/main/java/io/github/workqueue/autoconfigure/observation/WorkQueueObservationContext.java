package io.github.workqueue.autoconfigure.observation;

import java.util.function.IntSupplier;

import io.micrometer.observation.Observation;
import org.jspecify.annotations.Nullable;

import io.github.workqueue.core.trace.AddTraces;

/**
 * What an observation of one processing knows: the queue, the item, the trace contexts of
 * the adds it serves, its attempt and, once the worker method returned or threw, the
 * outcome.
 *
 * <p>
 * <b>Concurrency.</b> Used by the worker thread that processes the item, one processing
 * per context.
 */
public class WorkQueueObservationContext extends Observation.Context {

	private final String queueName;

	private final Object item;

	private final @Nullable AddTraces addTraces;

	private final IntSupplier attempt;

	private @Nullable String outcome;

	public WorkQueueObservationContext(String queueName, Object item) {
		this(queueName, item, null, () -> 1);
	}

	/**
	 * @param queueName the queue's name
	 * @param item the item
	 * @param addTraces the trace contexts of the adds the processing serves, or null
	 * @param attempt the attempt the processing is, asked when read
	 */
	public WorkQueueObservationContext(String queueName, Object item, @Nullable AddTraces addTraces,
			IntSupplier attempt) {
		this.queueName = queueName;
		this.item = item;
		this.addTraces = addTraces;
		this.attempt = attempt;
	}

	/**
	 * The trace contexts of the adds the processing serves (see
	 * {@link io.github.workqueue.core.trace.TracedQueue}), or null when none carried one.
	 */
	public @Nullable AddTraces getAddTraces() {
		return this.addTraces;
	}

	/**
	 * The attempt the processing is: 1, or 1 plus the failures in a row before it. On
	 * Redis each call reads it from Redis.
	 */
	public int getAttempt() {
		return this.attempt.getAsInt();
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
