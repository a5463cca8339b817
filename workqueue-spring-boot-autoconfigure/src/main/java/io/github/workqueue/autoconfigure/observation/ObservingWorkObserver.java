package io.github.workqueue.autoconfigure.observation;

import java.util.function.IntSupplier;

import io.micrometer.observation.Observation;
import io.micrometer.observation.ObservationRegistry;
import org.jspecify.annotations.Nullable;

import io.github.workqueue.core.trace.AddTraces;
import io.github.workqueue.spring.WorkResult;
import io.github.workqueue.spring.internal.WorkObserver;

/**
 * Makes each processed item an {@link Observation}, named and tagged by the application's
 * {@link WorkQueueObservationConvention} if it declares one, else by
 * {@link DefaultWorkQueueObservationConvention} ({@code workqueue.process}, keys
 * {@code name} and {@code outcome}), so that tracing and timing work the Spring way.
 *
 * <p>
 * <b>Concurrency.</b> Thread-safe: each processing has an observation and a context of
 * its own.
 */
public class ObservingWorkObserver implements WorkObserver {

	private static final DefaultWorkQueueObservationConvention DEFAULT = new DefaultWorkQueueObservationConvention();

	private final ObservationRegistry registry;

	private final @Nullable WorkQueueObservationConvention convention;

	/**
	 * @param registry the registry
	 * @param convention the application's convention, or {@code null} for the default
	 */
	public ObservingWorkObserver(ObservationRegistry registry, @Nullable WorkQueueObservationConvention convention) {
		this.registry = registry;
		this.convention = convention;
	}

	@Override
	public WorkResult observe(String queueName, Object item, Work work) throws Throwable {
		return observe(new WorkQueueObservationContext(queueName, item), work);
	}

	@Override
	public WorkResult observe(String queueName, Object item, @Nullable AddTraces traces, IntSupplier attempt, Work work)
			throws Throwable {
		return observe(new WorkQueueObservationContext(queueName, item, traces, attempt), work);
	}

	private WorkResult observe(WorkQueueObservationContext context, Work work) throws Throwable {
		Observation observation = Observation.createNotStarted(this.convention, DEFAULT, () -> context, this.registry)
			.start();
		Observation.Scope scope = observation.openScope();
		try {
			WorkResult result = work.call();
			context.setOutcome("success");
			return result;
		}
		catch (Throwable failure) {
			context.setOutcome("error");
			observation.error(failure);
			throw failure;
		}
		finally {
			scope.close();
			observation.stop();
		}
	}

}
