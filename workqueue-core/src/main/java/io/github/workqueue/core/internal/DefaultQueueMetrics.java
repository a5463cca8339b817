package io.github.workqueue.core.internal;

import java.util.EnumMap;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

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

	private final String name;

	private final MetricsProvider provider;

	/**
	 * Depth gauges by priority, made as priorities appear; written under the queue's
	 * lock.
	 */
	private final Map<Integer, GaugeMetric> depths = new ConcurrentHashMap<>();

	private final CounterMetric adds;

	private final HistogramMetric latency;

	private final HistogramMetric workDuration;

	private final SettableGaugeMetric unfinishedWorkSeconds;

	private final SettableGaugeMetric longestRunningProcessor;

	private final SettableGaugeMetric oldestReadyItem;

	private final CounterMetric retries;

	private final SettableGaugeMetric waiting;

	private final Map<DropReason, CounterMetric> dropped = new EnumMap<>(DropReason.class);

	DefaultQueueMetrics(String name, MetricsProvider provider, int defaultPriority) {
		this.name = name;
		this.provider = provider;
		depthOf(defaultPriority);
		this.adds = provider.newAddsMetric(name);
		this.latency = provider.newLatencyMetric(name);
		this.workDuration = provider.newWorkDurationMetric(name);
		this.unfinishedWorkSeconds = provider.newUnfinishedWorkSecondsMetric(name);
		this.longestRunningProcessor = provider.newLongestRunningProcessorSecondsMetric(name);
		this.oldestReadyItem = provider.newOldestReadyItemSecondsMetric(name);
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
	public void depthChanged(int priority, int delta) {
		GaugeMetric depth = depthOf(priority);
		if (delta > 0) {
			for (int i = 0; i < delta; i++) {
				depth.inc();
			}
		}
		else {
			for (int i = 0; i > delta; i--) {
				depth.dec();
			}
		}
	}

	private GaugeMetric depthOf(int priority) {
		GaugeMetric depth = this.depths.get(priority);
		if (depth == null) {
			depth = this.depths.computeIfAbsent(priority, (key) -> this.provider.newDepthMetric(this.name, key));
		}
		return depth;
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

	@Override
	public void oldestReady(long nanos) {
		this.oldestReadyItem.set(Nanos.toSeconds(nanos));
	}

}
