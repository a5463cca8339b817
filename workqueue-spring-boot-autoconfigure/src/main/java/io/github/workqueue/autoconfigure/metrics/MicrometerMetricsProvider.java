package io.github.workqueue.autoconfigure.metrics;

import java.time.Duration;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tags;
import io.micrometer.core.instrument.Timer;
import org.jspecify.annotations.Nullable;

import io.github.workqueue.core.metrics.CounterMetric;
import io.github.workqueue.core.metrics.DropReason;
import io.github.workqueue.core.metrics.GaugeMetric;
import io.github.workqueue.core.metrics.HistogramMetric;
import io.github.workqueue.core.metrics.LateOutcome;
import io.github.workqueue.core.metrics.MetricsProvider;
import io.github.workqueue.core.metrics.SettableGaugeMetric;
import io.github.workqueue.core.metrics.SharedFigure;

/**
 * The core's metrics SPI on Micrometer, under client-go's metric names, tagged
 * {@code name} with the queue's name. Scraped by Prometheus they read exactly as
 * client-go's: {@code workqueue_depth}, {@code workqueue_adds_total},
 * {@code workqueue_queue_duration_seconds}, {@code workqueue_work_duration_seconds},
 * {@code workqueue_unfinished_work_seconds},
 * {@code workqueue_longest_running_processor_seconds}, {@code workqueue_retries_total};
 * plus {@code workqueue_waiting} and {@code workqueue_dropped_total} (tag
 * {@code reason}), and for queues shared on Redis the queue-wide
 * {@code workqueue_shared_*} gauges ({@code workqueue_shared_depth} tagged
 * {@code priority}, as {@code workqueue_depth} is).
 *
 * <p>
 * Gauges read atomics that the queue updates, so a scrape costs the queue nothing; the
 * two durations are histograms with client-go's buckets, 10ns to 10s by powers of ten.
 *
 * <p>
 * <b>Concurrency.</b> Thread-safe: every meter is.
 */
public class MicrometerMetricsProvider implements MetricsProvider {

	static final Duration[] CLIENT_GO_BUCKETS = clientGoBuckets();

	private final MeterRegistry registry;

	public MicrometerMetricsProvider(MeterRegistry registry) {
		this.registry = registry;
	}

	private static Duration[] clientGoBuckets() {
		// prometheus.ExponentialBuckets(10e-9, 10, 10): 1e-8 s up to 10 s.
		Duration[] buckets = new Duration[10];
		long nanos = 10;
		for (int i = 0; i < buckets.length; i++) {
			buckets[i] = Duration.ofNanos(nanos);
			nanos *= 10;
		}
		return buckets;
	}

	/**
	 * {@inheritDoc}
	 * <p>
	 * The depth of priority 0; queues report their depth per priority, through
	 * {@link #newDepthMetric(String, int)}.
	 */
	@Override
	public GaugeMetric newDepthMetric(String name) {
		return newDepthMetric(name, 0);
	}

	/**
	 * {@inheritDoc}
	 * <p>
	 * {@code workqueue_depth} labelled with the queue's name and the priority, as
	 * controller-runtime's priority queue: {@code sum by (name)} gives client-go's depth.
	 */
	@Override
	public GaugeMetric newDepthMetric(String name, int priority) {
		AtomicLong depth = new AtomicLong();
		Gauge.builder("workqueue.depth", depth, AtomicLong::get)
			.description("Current depth of workqueue")
			.tag("name", name)
			.tag("priority", Integer.toString(priority))
			.register(this.registry);
		return new GaugeMetric() {

			@Override
			public void inc() {
				depth.incrementAndGet();
			}

			@Override
			public void dec() {
				depth.decrementAndGet();
			}

		};
	}

	@Override
	public CounterMetric newAddsMetric(String name) {
		return counter("workqueue.adds", "Total number of adds handled by workqueue", Tags.of("name", name));
	}

	@Override
	public HistogramMetric newLatencyMetric(String name) {
		return timer("workqueue.queue.duration",
				"How long in seconds an item stays in workqueue before being requested", name);
	}

	@Override
	public HistogramMetric newWorkDurationMetric(String name) {
		return timer("workqueue.work.duration", "How long in seconds processing an item from workqueue takes", name);
	}

	@Override
	public SettableGaugeMetric newUnfinishedWorkSecondsMetric(String name) {
		return settable("workqueue.unfinished.work",
				"How many seconds of work has been done that is in progress and hasn't been observed by "
						+ "work_duration. Large values indicate stuck threads. One can deduce the number of stuck "
						+ "threads by observing the rate at which this increases.",
				name, "seconds");
	}

	@Override
	public SettableGaugeMetric newLongestRunningProcessorSecondsMetric(String name) {
		return settable("workqueue.longest.running.processor",
				"How many seconds has the longest running processor for workqueue been running.", name, "seconds");
	}

	@Override
	public SettableGaugeMetric newOldestReadyItemSecondsMetric(String name) {
		return settable("workqueue.oldest.ready.item",
				"How many seconds the oldest item ready and not yet taken has waited since it was added", name,
				"seconds");
	}

	@Override
	public CounterMetric newRetriesMetric(String name) {
		return counter("workqueue.retries", "Total number of retries handled by workqueue", Tags.of("name", name));
	}

	@Override
	public SettableGaugeMetric newWaitingMetric(String name) {
		return settable("workqueue.waiting", "Current number of items waiting for a delay before they are added", name,
				null);
	}

	/**
	 * {@inheritDoc}
	 * <p>
	 * {@code workqueue_shared_} and the figure's name, but the depth: it is reported per
	 * priority by {@link #newSharedDepthMetric(String, int)}, so this one records
	 * nothing.
	 */
	@Override
	public SettableGaugeMetric newSharedMetric(String name, SharedFigure figure) {
		if (figure == SharedFigure.DEPTH) {
			return (value) -> {
			};
		}
		return settable("workqueue.shared." + figure.meterSuffix(),
				sharedDescription(figure.name().toLowerCase(java.util.Locale.ROOT).replace('_', ' ')), name, null);
	}

	/**
	 * {@inheritDoc}
	 * <p>
	 * {@code workqueue_shared_depth} labelled with the queue's name and the priority:
	 * {@code sum by (name)} of one instance's series gives the queue's depth, and every
	 * instance reports the same figures.
	 */
	@Override
	public SettableGaugeMetric newSharedDepthMetric(String name, int priority) {
		return settable("workqueue.shared.depth", sharedDescription("ready, per priority"),
				Tags.of("name", name, "priority", Integer.toString(priority)), null);
	}

	private static String sharedDescription(String figure) {
		return "Queue-wide number of items (" + figure + ") of a queue shared on Redis, as last read by this instance";
	}

	@Override
	public CounterMetric newStallsMetric(String name) {
		return counter("workqueue.stalls",
				"Times the thread that sends this instance's requests of a Redis queue made no progress for longer "
						+ "than its bound while requests waited",
				Tags.of("name", name));
	}

	@Override
	public CounterMetric newUnansweredDonesMetric(String name, LateOutcome outcome) {
		return counter("workqueue.unanswered.dones",
				"Dones of a Redis queue on this instance that got no answer in time, by the outcome learned later",
				Tags.of("name", name, "outcome", outcome.tagValue()));
	}

	@Override
	public CounterMetric newUnreplicatedWritesMetric(String name) {
		return counter("workqueue.unreplicated.writes",
				"Writes of a Redis queue on this instance that the master applied but fewer replicas than its "
						+ "replicas-ack setting confirmed in time",
				Tags.of("name", name));
	}

	@Override
	public CounterMetric newDroppedMetric(String name, DropReason reason) {
		return counter("workqueue.dropped", "Total number of items the workqueue dropped, by reason",
				Tags.of("name", name, "reason", reason.tagValue()));
	}

	private CounterMetric counter(String meter, String description, Tags tags) {
		Counter counter = Counter.builder(meter).description(description).tags(tags).register(this.registry);
		return counter::increment;
	}

	private HistogramMetric timer(String meter, String description, String name) {
		Timer timer = Timer.builder(meter)
			.description(description)
			.tag("name", name)
			.serviceLevelObjectives(CLIENT_GO_BUCKETS)
			// client-go's histograms are plain cumulative buckets; one ring-buffer slot
			// instead of Micrometer's default three makes each observation a third of
			// the bucket work.
			.distributionStatisticBufferLength(1)
			.register(this.registry);
		return (seconds) -> timer.record((long) (seconds * 1e9), TimeUnit.NANOSECONDS);
	}

	private SettableGaugeMetric settable(String meter, String description, String name, @Nullable String baseUnit) {
		return settable(meter, description, Tags.of("name", name), baseUnit);
	}

	private SettableGaugeMetric settable(String meter, String description, Tags tags, @Nullable String baseUnit) {
		DoubleValue value = new DoubleValue();
		Gauge.builder(meter, value, DoubleValue::get)
			.description(description)
			.tags(tags)
			.baseUnit(baseUnit)
			.register(this.registry);
		return value::set;
	}

}
