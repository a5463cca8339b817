package io.github.workqueue.redis.internal;

import java.util.EnumMap;
import java.util.Map;

import io.github.workqueue.core.metrics.CounterMetric;
import io.github.workqueue.core.metrics.DropReason;
import io.github.workqueue.core.metrics.HistogramMetric;
import io.github.workqueue.core.metrics.MetricsProvider;
import io.github.workqueue.core.metrics.SettableGaugeMetric;
import io.github.workqueue.core.metrics.SharedFigure;
import io.github.workqueue.redis.RedisQueueStats;

/**
 * client-go's metrics as this instance sees them: its adds, the queue time of the items
 * it took (measured on Redis's clock), its work durations, retries, drops and unfinished
 * work. Queue-wide figures come from {@code RedisQueue.stats()}. Thread-safe as the
 * provider's metrics are.
 */
public final class RedisQueueMetrics {

	private final CounterMetric adds;

	private final HistogramMetric latency;

	private final HistogramMetric workDuration;

	private final CounterMetric retries;

	private final CounterMetric dropped;

	private final SettableGaugeMetric unfinishedWork;

	private final SettableGaugeMetric longestRunning;

	private final Map<SharedFigure, SettableGaugeMetric> shared = new EnumMap<>(SharedFigure.class);

	public RedisQueueMetrics(String name, MetricsProvider provider) {
		this.adds = provider.newAddsMetric(name);
		this.latency = provider.newLatencyMetric(name);
		this.workDuration = provider.newWorkDurationMetric(name);
		this.retries = provider.newRetriesMetric(name);
		this.dropped = provider.newDroppedMetric(name, DropReason.ADD_AFTER_SHUTDOWN);
		this.unfinishedWork = provider.newUnfinishedWorkSecondsMetric(name);
		this.longestRunning = provider.newLongestRunningProcessorSecondsMetric(name);
		for (SharedFigure figure : SharedFigure.values()) {
			this.shared.put(figure, provider.newSharedMetric(name, figure));
		}
	}

	void added() {
		this.adds.inc();
	}

	void taken(long queuedMicros) {
		this.latency.observe(queuedMicros / 1e6);
	}

	void finished(long workNanos) {
		this.workDuration.observe(workNanos / 1e9);
	}

	void retried() {
		this.retries.inc();
	}

	void droppedAfterShutdown() {
		this.dropped.inc();
	}

	void shared(RedisQueueStats stats) {
		this.shared.get(SharedFigure.DEPTH).set(stats.queued());
		this.shared.get(SharedFigure.WAITING).set(stats.waiting());
		this.shared.get(SharedFigure.IN_FLIGHT).set(stats.inFlight());
		this.shared.get(SharedFigure.PARKED).set(stats.parked());
		this.shared.get(SharedFigure.REDELIVERIES).set(stats.redeliveries());
	}

	void unfinished(long totalNanos, long longestNanos) {
		this.unfinishedWork.set(totalNanos / 1e9);
		this.longestRunning.set(longestNanos / 1e9);
	}

}
