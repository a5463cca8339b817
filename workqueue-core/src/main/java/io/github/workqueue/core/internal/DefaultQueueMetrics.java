package io.github.workqueue.core.internal;

import java.util.EnumMap;
import java.util.HashMap;
import java.util.Map;

import io.github.workqueue.core.Clock;
import io.github.workqueue.core.metrics.CounterMetric;
import io.github.workqueue.core.metrics.DropReason;
import io.github.workqueue.core.metrics.GaugeMetric;
import io.github.workqueue.core.metrics.HistogramMetric;
import io.github.workqueue.core.metrics.MetricsProvider;
import io.github.workqueue.core.metrics.SettableGaugeMetric;

/**
 * client-go's queue metrics: remembers when each item was added and when its processing
 * started, to observe queue latency and work duration, and sums the ages of the items in
 * progress when asked to update the unfinished work gauges.
 *
 * <p>
 * <b>Concurrency.</b> The per-item maps are guarded by the owning queue's lock: every
 * method that touches them is only called with that lock held.
 *
 * @param <T> the item type
 */
final class DefaultQueueMetrics<T> implements QueueMetrics<T> {

	private final Clock clock;

	private final GaugeMetric depth;

	private final CounterMetric adds;

	private final HistogramMetric latency;

	private final HistogramMetric workDuration;

	private final SettableGaugeMetric unfinishedWorkSeconds;

	private final SettableGaugeMetric longestRunningProcessor;

	private final CounterMetric retries;

	private final SettableGaugeMetric waiting;

	private final Map<DropReason, CounterMetric> dropped = new EnumMap<>(DropReason.class);

	/** Guarded by the queue's lock. */
	private final Map<T, Long> addTimes = new HashMap<>();

	/** Guarded by the queue's lock. */
	private final Map<T, Long> processingStartTimes = new HashMap<>();

	DefaultQueueMetrics(String name, Clock clock, MetricsProvider provider) {
		this.clock = clock;
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
	public void added(T item) {
		this.adds.inc();
		this.depth.inc();
		this.addTimes.putIfAbsent(item, this.clock.nanoTime());
	}

	@Override
	public void taken(T item) {
		long now = this.clock.nanoTime();
		this.depth.dec();
		this.processingStartTimes.put(item, now);
		Long addedAt = this.addTimes.remove(item);
		if (addedAt != null) {
			this.latency.observe(Nanos.toSeconds(now - addedAt));
		}
	}

	@Override
	public void finished(T item) {
		Long startedAt = this.processingStartTimes.remove(item);
		if (startedAt != null) {
			this.workDuration.observe(Nanos.toSeconds(this.clock.nanoTime() - startedAt));
		}
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
	public void updateUnfinishedWork() {
		long now = this.clock.nanoTime();
		double total = 0;
		double oldest = 0;
		for (long startedAt : this.processingStartTimes.values()) {
			double age = Nanos.toSeconds(now - startedAt);
			total += age;
			oldest = Math.max(oldest, age);
		}
		this.unfinishedWorkSeconds.set(total);
		this.longestRunningProcessor.set(oldest);
	}

	@Override
	public boolean enabled() {
		return true;
	}

}
