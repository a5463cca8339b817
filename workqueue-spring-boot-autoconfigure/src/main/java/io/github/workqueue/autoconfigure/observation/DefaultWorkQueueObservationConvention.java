package io.github.workqueue.autoconfigure.observation;

import io.micrometer.common.KeyValue;
import io.micrometer.common.KeyValues;

/**
 * The observation {@code workqueue.process}, contextual name {@code <queue> process},
 * with the low-cardinality keys {@code name} (the queue, as the queue's metrics tag it),
 * {@code outcome} ({@code success} or {@code error}, once known), and OpenTelemetry's
 * messaging keys: {@code messaging.system} ({@code workqueue}),
 * {@code messaging.destination.name} (the queue) and {@code messaging.operation.type}
 * ({@code process}).
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
		KeyValues values = KeyValues.of(KeyValue.of("name", context.getQueueName()),
				KeyValue.of("messaging.system", "workqueue"),
				KeyValue.of("messaging.destination.name", context.getQueueName()),
				KeyValue.of("messaging.operation.type", "process"));
		String outcome = context.getOutcome();
		return (outcome != null) ? values.and("outcome", outcome) : values;
	}

}
