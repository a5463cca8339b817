package io.github.workqueue.core.internal;

import java.util.EnumMap;
import java.util.Map;

import io.github.workqueue.core.metrics.CounterMetric;
import io.github.workqueue.core.metrics.DropReason;
import io.github.workqueue.core.metrics.GaugeMetric;
import io.github.workqueue.core.metrics.HistogramMetric;
import io.github.workqueue.core.metrics.MetricsProvider;
import io.github.workqueue.core.metrics.SettableGaugeMetric;

/**
 * client-go's queue metrics on a {@link MetricsProvider}; the measurements come from the
 * queue, which keeps the timestamps.
 *
 * <p>
 * <b>Concurrency.</b> Stateless apart from the provider's metrics, which are thread-safe.
 */
final class DefaultQueueMetrics implements QueueMetrics {

	private final GaugeMetric depth;

	private final CounterMetric adds;

	private final HistogramMetric latency;

	private final HistogramMetric workDuration;

	private final SettableGaugeMetric unfinishedWorkSeconds;

	private final SettableGaugeMetric longestRunningProcessor;

	private final CounterMetric retries;

	private final SettableGaugeMetric waiting;

	private final Map<DropReason, CounterMetric> dropped = new EnumMap<>(DropReason.class);

	DefaultQueueMetrics(String name, MetricsProvider provider) {
		this.depth = provider.newDepthMetric(name);
		this.adds = provider.newAddsMetric(name);
		this.latency = provider.newLatencyMetric(name);
		this.workDuration = provider.newWorkDurationMetric(name);
		this.unfinishedWorkSeconds = provider.newUnfinishedWorkSecondsMetric(name);
		this.longestRunningProcessor = provider.newLongestRunningProcessorSecondsMetric(name);
		this.retries = provider.newRetriesMetric(name);
		this.waiting = provider.newWaitingMetric(name);
		for (DropReason reason : DropReason.values()) {
			this.dropped.put(reason, provider.newDroppedMetric(name, reason));
		}
	}

	@Override
	public boolean enabled() {
		return true;
	}

	@Override
	public void depthChanged(int delta) {
		if (delta > 0) {
			for (int i = 0; i < delta; i++) {
				this.depth.inc();
			}
		}
		else {
			for (int i = 0; i > delta; i--) {
				this.depth.dec();
			}
		}
	}

	@Override
	public void added(int count) {
		this.adds.add(count);
	}

	@Override
	public void taken(long queuedNanos) {
		this.latency.observe(Nanos.toSeconds(queuedNanos));
	}

	@Override
	public void finished(long workNanos) {
		this.workDuration.observe(Nanos.toSeconds(workNanos));
	}

	@Override
	public void retried() {
		this.retries.inc();
	}

	@Override
	public void waiting(int count) {
		this.waiting.set(count);
	}

	@Override
	public void dropped(DropReason reason, int count) {
		this.dropped.get(reason).add(count);
	}

	@Override
	public void unfinishedWork(long totalNanos, long longestNanos) {
		this.unfinishedWorkSeconds.set(Nanos.toSeconds(totalNanos));
		this.longestRunningProcessor.set(Nanos.toSeconds(longestNanos));
	}

}
