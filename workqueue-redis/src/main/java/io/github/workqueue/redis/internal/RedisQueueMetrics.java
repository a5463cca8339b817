package io.github.workqueue.redis.internal;

import java.util.EnumMap;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;
import java.util.SortedMap;

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
 * work. Queue-wide figures come from {@code RedisQueue.stats()} and, per priority, from
 * {@code lenByPriority()}. Thread-safe as the provider's metrics are, except
 * {@link #sharedDepth(SortedMap)}, which one thread calls (the lease renewer's).
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

	private final String name;

	private final MetricsProvider provider;

	/** The depth gauge of every priority asked so far. */
	private final Map<Integer, SettableGaugeMetric> depthByPriority = new HashMap<>();

	/**
	 * The priorities whose gauge was last set above 0: the ones to set to 0 once they
	 * have no ready item.
	 */
	private final Set<Integer> nonEmpty = new HashSet<>();

	/**
	 * @param name the queue's name
	 * @param provider the metrics provider
	 * @param defaultPriority the priority of adds that name none, whose depth gauge is
	 * made at once
	 */
	public RedisQueueMetrics(String name, MetricsProvider provider, int defaultPriority) {
		this.name = name;
		this.provider = provider;
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
		this.depthByPriority.put(defaultPriority, provider.newSharedDepthMetric(name, defaultPriority));
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

	/**
	 * Sets the queue-wide depth of each priority: of those that have ready items, and 0
	 * for those that had some at the last call.
	 * @param byPriority ready items per priority, only priorities that have some
	 */
	void sharedDepth(SortedMap<Integer, Integer> byPriority) {
		for (Integer emptied : this.nonEmpty) {
			if (!byPriority.containsKey(emptied)) {
				depthGauge(emptied).set(0);
			}
		}
		this.nonEmpty.clear();
		byPriority.forEach((priority, depth) -> {
			depthGauge(priority).set(depth);
			if (depth > 0) {
				this.nonEmpty.add(priority);
			}
		});
	}

	private SettableGaugeMetric depthGauge(int priority) {
		return this.depthByPriority.computeIfAbsent(priority,
				(asked) -> this.provider.newSharedDepthMetric(this.name, asked));
	}

	void unfinished(long totalNanos, long longestNanos) {
		this.unfinishedWork.set(totalNanos / 1e9);
		this.longestRunning.set(longestNanos / 1e9);
	}

}
