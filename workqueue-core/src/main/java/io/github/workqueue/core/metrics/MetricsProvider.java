package io.github.workqueue.core.metrics;

/**
 * Creates the metrics of a queue, once per queue name, when the queue is built:
 * client-go's seven workqueue metrics plus waiting and dropped items.
 *
 * <p>
 * Queues without a name, or built with {@link #noop()}, record nothing and do no metrics
 * work at all. The seven client-go metrics are updated as client-go updates them: depth
 * and adds on a new add, queue latency on {@code get}, work duration on {@code done}, and
 * the unfinished work and longest running processor gauges recomputed periodically from
 * the queue's clock.
 *
 * <p>
 * <b>Concurrency.</b> The metrics returned must be thread-safe; queues may update them
 * while holding their lock, so updates must be quick and must not call back into a queue.
 */
public interface MetricsProvider {

	/**
	 * Returns the provider that records nothing.
	 * @return the no-op provider
	 */
	static MetricsProvider noop() {
		return NoopMetricsProvider.INSTANCE;
	}

	/**
	 * The number of items added and not yet handed to a worker ({@code workqueue_depth}).
	 * @param name the queue name
	 * @return the gauge
	 */
	GaugeMetric newDepthMetric(String name);

	/**
	 * The depth of one priority ({@code workqueue_depth} with a {@code priority} label,
	 * as controller-runtime's priority queue reports it). Queues ask it once per priority
	 * they see, the default priority first, and report depth only through these gauges.
	 * The default returns {@link #newDepthMetric(String)}, so that a provider written for
	 * client-go's metrics sees the sum of every priority; a provider that registers a new
	 * gauge at each call overrides it.
	 * @param name the queue name
	 * @param priority the priority
	 * @return the gauge
	 */
	default GaugeMetric newDepthMetric(String name, int priority) {
		return newDepthMetric(name);
	}

	/**
	 * Adds that were not deduplicated ({@code workqueue_adds_total}).
	 * @param name the queue name
	 * @return the counter
	 */
	CounterMetric newAddsMetric(String name);

	/**
	 * Seconds an item stayed in the queue before a worker took it
	 * ({@code workqueue_queue_duration_seconds}).
	 * @param name the queue name
	 * @return the histogram
	 */
	HistogramMetric newLatencyMetric(String name);

	/**
	 * Seconds between {@code get} and {@code done}
	 * ({@code workqueue_work_duration_seconds}).
	 * @param name the queue name
	 * @return the histogram
	 */
	HistogramMetric newWorkDurationMetric(String name);

	/**
	 * Seconds of work in progress that has not been observed by the work duration yet
	 * ({@code workqueue_unfinished_work_seconds}).
	 * @param name the queue name
	 * @return the gauge
	 */
	SettableGaugeMetric newUnfinishedWorkSecondsMetric(String name);

	/**
	 * Seconds the longest running item has been processing
	 * ({@code workqueue_longest_running_processor_seconds}).
	 * @param name the queue name
	 * @return the gauge
	 */
	SettableGaugeMetric newLongestRunningProcessorSecondsMetric(String name);

	/**
	 * Seconds the oldest item that is ready, and not yet taken, has waited since it was
	 * added ({@code workqueue_oldest_ready_item_seconds}); 0 when none is ready. Updated
	 * with {@link #newUnfinishedWorkSecondsMetric(String)}. Where the queue wait
	 * histogram tells how long the items taken waited, this tells how long the one still
	 * waiting has: it grows while the queue is stuck. The default records nothing.
	 * @param name the queue name
	 * @return the gauge
	 */
	default SettableGaugeMetric newOldestReadyItemSecondsMetric(String name) {
		return NoopMetricsProvider.INSTANCE.newWaitingMetric(name);
	}

	/**
	 * Delayed and rate-limited adds ({@code workqueue_retries_total}).
	 * @param name the queue name
	 * @return the counter
	 */
	CounterMetric newRetriesMetric(String name);

	/**
	 * Items waiting for their delay. Not in client-go; records nothing unless overridden.
	 * @param name the queue name
	 * @return the gauge
	 */
	default SettableGaugeMetric newWaitingMetric(String name) {
		return NoopMetricsProvider.INSTANCE.newWaitingMetric(name);
	}

	/**
	 * A queue-wide figure of a shared (Redis) queue, refreshed periodically by each
	 * instance. Not in client-go; records nothing unless overridden.
	 * @param name the queue name
	 * @param figure which figure
	 * @return the gauge
	 */
	default SettableGaugeMetric newSharedMetric(String name, SharedFigure figure) {
		return NoopMetricsProvider.INSTANCE.newWaitingMetric(name);
	}

	/**
	 * The queue-wide depth of one priority of a shared (Redis) queue, refreshed with the
	 * other shared figures: {@link SharedFigure#DEPTH} split by priority, as
	 * {@link #newDepthMetric(String, int)} splits {@code workqueue_depth}. Shared queues
	 * ask it for their default priority at start and for every other priority once it has
	 * ready items, and set a priority's gauge to 0 while it has none. They keep setting
	 * {@link SharedFigure#DEPTH} to the sum, from the same read; a provider that reports
	 * per priority may leave that figure unrecorded. Records nothing unless overridden.
	 * @param name the queue name
	 * @param priority the priority
	 * @return the gauge
	 */
	default SettableGaugeMetric newSharedDepthMetric(String name, int priority) {
		return NoopMetricsProvider.INSTANCE.newWaitingMetric(name);
	}

	/**
	 * Stalls of a shared (Redis) queue on this instance: times the thread that sends its
	 * requests to the backend made no progress for longer than its bound while requests
	 * waited. Not in client-go; records nothing unless overridden.
	 * @param name the queue name
	 * @return the counter
	 */
	default CounterMetric newStallsMetric(String name) {
		return NoopMetricsProvider.INSTANCE.newAddsMetric(name);
	}

	/**
	 * Dones of a shared (Redis) queue on this instance that got no answer in time, by the
	 * final outcome learned later; each is counted once, when its outcome is known. Not
	 * in client-go; records nothing unless overridden.
	 * @param name the queue name
	 * @param outcome the final outcome
	 * @return the counter
	 */
	default CounterMetric newUnansweredDonesMetric(String name, LateOutcome outcome) {
		return NoopMetricsProvider.INSTANCE.newAddsMetric(name);
	}

	/**
	 * Writes (adds, delayed adds, dones) of a shared (Redis) queue on this instance that
	 * the master applied but fewer replicas than the queue's {@code replicas-ack} setting
	 * confirmed in time: each one's caller got an exception saying so. Not in client-go;
	 * records nothing unless overridden.
	 * @param name the queue name
	 * @return the counter
	 */
	default CounterMetric newUnreplicatedWritesMetric(String name) {
		return NoopMetricsProvider.INSTANCE.newAddsMetric(name);
	}

	/**
	 * Items the queue dropped, by reason. Not in client-go; records nothing unless
	 * overridden.
	 * @param name the queue name
	 * @param reason why the items were dropped
	 * @return the counter
	 */
	default CounterMetric newDroppedMetric(String name, DropReason reason) {
		return NoopMetricsProvider.INSTANCE.newDroppedMetric(name, reason);
	}

}
