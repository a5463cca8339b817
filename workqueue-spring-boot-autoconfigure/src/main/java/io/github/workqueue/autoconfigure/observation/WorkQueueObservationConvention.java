package io.github.workqueue.autoconfigure.observation;

import io.micrometer.observation.Observation;
import io.micrometer.observation.ObservationConvention;

/**
 * Names and tags the observation of each processing. Declare a bean of this type to
 * replace {@link DefaultWorkQueueObservationConvention} (for example to add a key read
 * from the item), as Spring Kafka's {@code KafkaListenerObservationConvention} is.
 */
public interface WorkQueueObservationConvention extends ObservationConvention<WorkQueueObservationContext> {

	@Override
	default boolean supportsContext(Observation.Context context) {
		return context instanceof WorkQueueObservationContext;
	}

}
