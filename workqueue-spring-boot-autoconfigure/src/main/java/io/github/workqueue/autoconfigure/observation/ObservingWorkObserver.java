package io.github.workqueue.autoconfigure.observation;

import io.micrometer.observation.Observation;
import io.micrometer.observation.ObservationRegistry;

import io.github.workqueue.spring.WorkResult;
import io.github.workqueue.spring.internal.WorkObserver;

/**
 * Makes each processed item an {@link Observation} named {@code workqueue.process}, with
 * the low-cardinality keys {@code queue} and {@code outcome} (success or error), so that
 * tracing and timing work the Spring way.
 */
public class ObservingWorkObserver implements WorkObserver {

	static final String NAME = "workqueue.process";

	private final ObservationRegistry registry;

	public ObservingWorkObserver(ObservationRegistry registry) {
		this.registry = registry;
	}

	@Override
	public WorkResult observe(String queueName, Object item, Work work) throws Throwable {
		Observation observation = Observation.createNotStarted(NAME, this.registry)
			.contextualName(queueName + " process")
			.lowCardinalityKeyValue("queue", queueName)
			.start();
		Observation.Scope scope = observation.openScope();
		try {
			WorkResult result = work.call();
			observation.lowCardinalityKeyValue("outcome", "success");
			return result;
		}
		catch (Throwable failure) {
			observation.lowCardinalityKeyValue("outcome", "error");
			observation.error(failure);
			throw failure;
		}
		finally {
			scope.close();
			observation.stop();
		}
	}

}
