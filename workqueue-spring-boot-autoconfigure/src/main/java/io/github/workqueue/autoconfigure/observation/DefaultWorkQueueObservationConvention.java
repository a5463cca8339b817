package io.github.workqueue.autoconfigure.observation;

import io.micrometer.common.KeyValues;

/**
 * The observation {@code workqueue.process}, contextual name {@code <queue> process},
 * with the low-cardinality keys {@code name} (the queue, as the queue's metrics tag it)
 * and {@code outcome} ({@code success} or {@code error}, once known).
 *
 * <p>
 * <b>Concurrency.</b> Stateless.
 */
public class DefaultWorkQueueObservationConvention implements WorkQueueObservationConvention {

	/** The observation's name. */
	public static final String NAME = "workqueue.process";

	@Override
	public String getName() {
		return NAME;
	}

	@Override
	public String getContextualName(WorkQueueObservationContext context) {
		return context.getQueueName() + " process";
	}

	@Override
	public KeyValues getLowCardinalityKeyValues(WorkQueueObservationContext context) {
		KeyValues values = KeyValues.of("name", context.getQueueName());
		String outcome = context.getOutcome();
		return (outcome != null) ? values.and("outcome", outcome) : values;
	}

}
