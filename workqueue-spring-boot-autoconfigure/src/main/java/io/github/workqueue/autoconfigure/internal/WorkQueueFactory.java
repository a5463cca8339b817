package io.github.workqueue.autoconfigure.internal;

import java.util.List;
import java.util.Set;

import io.github.workqueue.autoconfigure.WorkQueueBuilderCustomizer;
import io.github.workqueue.core.Clock;
import io.github.workqueue.core.RateLimitingQueue;
import io.github.workqueue.core.WorkQueue;
import io.github.workqueue.core.WorkQueueBuilder;
import io.github.workqueue.core.metrics.MetricsProvider;

/**
 * Builds a rate-limiting queue for a name from its resolved settings, the application's
 * clock and metrics provider, then the customizers.
 *
 * <p>
 * <b>Concurrency.</b> Thread-safe; each call builds a new queue.
 */
public final class WorkQueueFactory {

	private final QueueSettingsResolver settings;

	private final RateLimiterFactory rateLimiters;

	private final Clock clock;

	private final MetricsProvider metricsProvider;

	private final List<WorkQueueBuilderCustomizer> customizers;

	public WorkQueueFactory(QueueSettingsResolver settings, RateLimiterFactory rateLimiters, Clock clock,
			MetricsProvider metricsProvider, List<WorkQueueBuilderCustomizer> customizers) {
		this.settings = settings;
		this.rateLimiters = rateLimiters;
		this.clock = clock;
		this.metricsProvider = metricsProvider;
		this.customizers = customizers;
	}

	/**
	 * Builds the queue.
	 * @param <T> the item type
	 * @param name the queue name
	 * @return a new queue
	 */
	public <T> RateLimitingQueue<T> create(String name) {
		QueueSettings queueSettings = this.settings.resolve(name);
		WorkQueueBuilder builder = WorkQueue.builder()
			.name(name)
			.clock(this.clock)
			.metricsProvider(this.metricsProvider)
			.rateLimiter(this.rateLimiters.create(queueSettings.rateLimiter()));
		for (WorkQueueBuilderCustomizer customizer : this.customizers) {
			customizer.customize(name, builder);
		}
		return builder.buildRateLimiting();
	}

	/**
	 * Returns the resolved settings of a queue.
	 * @param name the queue name
	 * @return the settings
	 */
	public QueueSettings settings(String name) {
		return this.settings.resolve(name);
	}

	/**
	 * Returns the names of the queues declared under {@code workqueue.queues}.
	 * @return the names
	 */
	public Set<String> declaredQueueNames() {
		return this.settings.declaredQueueNames();
	}

}
