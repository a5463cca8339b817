package io.github.workqueue.redis.internal;

import io.github.workqueue.core.metrics.CounterMetric;
import io.github.workqueue.core.metrics.DropReason;
import io.github.workqueue.core.metrics.HistogramMetric;
import io.github.workqueue.core.metrics.MetricsProvider;
import io.github.workqueue.core.metrics.SettableGaugeMetric;

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

	public RedisQueueMetrics(String name, MetricsProvider provider) {
		this.adds = provider.newAddsMetric(name);
		this.latency = provider.newLatencyMetric(name);
		this.workDuration = provider.newWorkDurationMetric(name);
		this.retries = provider.newRetriesMetric(name);
		this.dropped = provider.newDroppedMetric(name, DropReason.ADD_AFTER_SHUTDOWN);
		this.unfinishedWork = provider.newUnfinishedWorkSecondsMetric(name);
		this.longestRunning = provider.newLongestRunningProcessorSecondsMetric(name);
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

	void unfinished(long totalNanos, long longestNanos) {
		this.unfinishedWork.set(totalNanos / 1e9);
		this.longestRunning.set(longestNanos / 1e9);
	}

}
