package io.github.workqueue.core.metrics;

import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.DoubleAdder;

/**
 * A metrics provider that remembers every value, for assertions.
 */
public final class RecordingMetricsProvider implements MetricsProvider {

	private final Map<String, AtomicLong> counters = new ConcurrentHashMap<>();

	private final Map<String, DoubleAdder> gauges = new ConcurrentHashMap<>();

	private final Map<String, List<Double>> histograms = new ConcurrentHashMap<>();

	private AtomicLong counter(String key) {
		return this.counters.computeIfAbsent(key, (k) -> new AtomicLong());
	}

	private DoubleAdder gauge(String key) {
		return this.gauges.computeIfAbsent(key, (k) -> new DoubleAdder());
	}

	private List<Double> histogram(String key) {
		return this.histograms.computeIfAbsent(key, (k) -> new CopyOnWriteArrayList<>());
	}

	private GaugeMetric upDown(String key) {
		DoubleAdder value = gauge(key);
		return new GaugeMetric() {

			@Override
			public void inc() {
				value.add(1);
			}

			@Override
			public void dec() {
				value.add(-1);
			}

		};
	}

	private SettableGaugeMetric settable(String key) {
		DoubleAdder value = gauge(key);
		return (newValue) -> {
			value.reset();
			value.add(newValue);
		};
	}

	@Override
	public GaugeMetric newDepthMetric(String name) {
		return upDown(name + ".depth");
	}

	/** Records each priority's depth, and the sum under the name as client-go's depth. */
	@Override
	public GaugeMetric newDepthMetric(String name, int priority) {
		GaugeMetric total = newDepthMetric(name);
		GaugeMetric own = upDown(name + ".depth." + priority);
		return new GaugeMetric() {

			@Override
			public void inc() {
				total.inc();
				own.inc();
			}

			@Override
			public void dec() {
				total.dec();
				own.dec();
			}

		};
	}

	@Override
	public CounterMetric newAddsMetric(String name) {
		return counter(name + ".adds")::addAndGet;
	}

	@Override
	public HistogramMetric newLatencyMetric(String name) {
		return histogram(name + ".latency")::add;
	}

	@Override
	public HistogramMetric newWorkDurationMetric(String name) {
		return histogram(name + ".work")::add;
	}

	@Override
	public SettableGaugeMetric newUnfinishedWorkSecondsMetric(String name) {
		return settable(name + ".unfinished");
	}

	@Override
	public SettableGaugeMetric newOldestReadyItemSecondsMetric(String name) {
		return settable(name + ".oldestReady");
	}

	@Override
	public SettableGaugeMetric newLongestRunningProcessorSecondsMetric(String name) {
		return settable(name + ".longest");
	}

	@Override
	public CounterMetric newRetriesMetric(String name) {
		return counter(name + ".retries")::addAndGet;
	}

	@Override
	public SettableGaugeMetric newWaitingMetric(String name) {
		return settable(name + ".waiting");
	}

	@Override
	public CounterMetric newDroppedMetric(String name, DropReason reason) {
		return counter(name + ".dropped." + reason.tagValue())::addAndGet;
	}

	public long adds(String name) {
		return counter(name + ".adds").get();
	}

	public long retries(String name) {
		return counter(name + ".retries").get();
	}

	public long dropped(String name, DropReason reason) {
		return counter(name + ".dropped." + reason.tagValue()).get();
	}

	public double depth(String name) {
		return gauge(name + ".depth").sum();
	}

	public boolean hasGauge(String key) {
		return this.gauges.containsKey(key);
	}

	public double depth(String name, int priority) {
		return gauge(name + ".depth." + priority).sum();
	}

	public double waiting(String name) {
		return gauge(name + ".waiting").sum();
	}

	public double unfinishedWorkSeconds(String name) {
		return gauge(name + ".unfinished").sum();
	}

	public double oldestReadyItemSeconds(String name) {
		return gauge(name + ".oldestReady").sum();
	}

	public double longestRunningProcessorSeconds(String name) {
		return gauge(name + ".longest").sum();
	}

	public List<Double> latencies(String name) {
		return List.copyOf(histogram(name + ".latency"));
	}

	public List<Double> workDurations(String name) {
		return List.copyOf(histogram(name + ".work"));
	}

}
