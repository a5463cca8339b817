package io.github.workqueue.redis.internal;

import java.util.EnumMap;
import java.util.HashMap;
import java.util.Map;
import java.util.SortedMap;

import io.github.workqueue.core.metrics.CounterMetric;
import io.github.workqueue.core.metrics.DropReason;
import io.github.workqueue.core.metrics.HistogramMetric;
import io.github.workqueue.core.metrics.LateOutcome;
import io.github.workqueue.core.metrics.MetricsProvider;
import io.github.workqueue.core.metrics.SettableGaugeMetric;
import io.github.workqueue.core.metrics.SharedFigure;
import io.github.workqueue.redis.DoneResult;
import io.github.workqueue.redis.RedisQueueStats;

/**
 * client-go's metrics as this instance sees them: its adds, the queue time of the items
 * it took (measured on Redis's clock), its work durations, retries, drops and unfinished
 * work. Queue-wide figures come from {@code RedisQueue.stats()} and, per priority, from
 * {@code lenByPriority()}. Thread-safe as the provider's metrics are, except
 * {@link #shared(RedisQueueStats, SortedMap)}, which one thread calls (the lease
 * renewer's): it alone adds per-priority gauges. {@link #stats(RedisQueueStats)} may be
 * called from any thread.
 */
public final class RedisQueueMetrics {

	private final CounterMetric adds;

	private final HistogramMetric latency;

	private final HistogramMetric workDuration;

	private final CounterMetric retries;

	private final CounterMetric dropped;

	private final CounterMetric removed;

	private final SettableGaugeMetric unfinishedWork;

	private final SettableGaugeMetric longestRunning;

	private final CounterMetric stalls;

	private final CounterMetric unreplicatedWrites;

	private final Map<LateOutcome, CounterMetric> unansweredDones = new EnumMap<>(LateOutcome.class);

	private final Map<SharedFigure, SettableGaugeMetric> shared = new EnumMap<>(SharedFigure.class);

	private final String name;

	private final MetricsProvider provider;

	/** The depth gauge of every priority asked so far. */
	private final Map<Integer, SettableGaugeMetric> depthByPriority = new HashMap<>();

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
		this.removed = provider.newDroppedMetric(name, DropReason.REMOVED);
		this.unfinishedWork = provider.newUnfinishedWorkSecondsMetric(name);
		this.longestRunning = provider.newLongestRunningProcessorSecondsMetric(name);
		this.stalls = provider.newStallsMetric(name);
		this.unreplicatedWrites = provider.newUnreplicatedWritesMetric(name);
		for (LateOutcome outcome : LateOutcome.values()) {
			this.unansweredDones.put(outcome, provider.newUnansweredDonesMetric(name, outcome));
		}
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

	CounterMetric unreplicatedWrites() {
		return this.unreplicatedWrites;
	}

	void stalled() {
		this.stalls.inc();
	}

	/** A done that got no answer in time has its final outcome. */
	void answeredLate(DoneResult result) {
		LateOutcome outcome = switch (result) {
			case ACCEPTED -> LateOutcome.ACCEPTED;
			case REJECTED -> LateOutcome.REJECTED;
			case NO_ANSWER -> LateOutcome.NEVER_KNOWN;
		};
		this.unansweredDones.get(outcome).inc();
	}

	void droppedAfterShutdown() {
		this.dropped.inc();
	}

	/** {@code remove} took an item out (counted as dropped, reason {@code removed}). */
	void removed() {
		this.removed.inc();
	}

	/**
	 * Sets the queue-wide figures: the depth from the ready items per priority (the sum,
	 * and each priority's, 0 for a priority asked before that has none now, so that all
	 * come from one read), the others from the stats.
	 * @param stats the queue-wide figures
	 * @param depthByPriority ready items per priority, only priorities that have some
	 */
	void shared(RedisQueueStats stats, SortedMap<Integer, Integer> depthByPriority) {
		stats(stats);
		this.shared.get(SharedFigure.DEPTH).set(depthByPriority.values().stream().mapToLong(Integer::longValue).sum());
		depthByPriority.keySet()
			.forEach((priority) -> this.depthByPriority.computeIfAbsent(priority,
					(asked) -> this.provider.newSharedDepthMetric(this.name, asked)));
		this.depthByPriority.forEach((priority, gauge) -> gauge.set(depthByPriority.getOrDefault(priority, 0)));
	}

	/**
	 * Sets the queue-wide figures the stats give (all but the depth), from any read of
	 * them, so that the gauges agree with the last figures anyone on this instance read
	 * (the endpoint's, after a drop of dead letters) and not only with the lease
	 * renewer's. Each gauge holds the value of whichever read set it last.
	 * @param stats the queue-wide figures
	 */
	void stats(RedisQueueStats stats) {
		this.shared.get(SharedFigure.WAITING).set(stats.waiting());
		this.shared.get(SharedFigure.IN_FLIGHT).set(stats.inFlight());
		this.shared.get(SharedFigure.PARKED).set(stats.parked());
		this.shared.get(SharedFigure.REDELIVERIES).set(stats.redeliveries());
		this.shared.get(SharedFigure.DEAD_LETTERS).set(stats.deadLetters());
	}

	void unfinished(long totalNanos, long longestNanos) {
		this.unfinishedWork.set(totalNanos / 1e9);
		this.longestRunning.set(longestNanos / 1e9);
	}

}
