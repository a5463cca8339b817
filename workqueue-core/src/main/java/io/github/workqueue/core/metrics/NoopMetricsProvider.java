package io.github.workqueue.core.metrics;

/**
 * The provider that records nothing. Queues recognise it and skip all metrics work.
 */
final class NoopMetricsProvider implements MetricsProvider {

	static final NoopMetricsProvider INSTANCE = new NoopMetricsProvider();

	private static final GaugeMetric GAUGE = new GaugeMetric() {

		@Override
		public void inc() {
		}

		@Override
		public void dec() {
		}

	};

	private NoopMetricsProvider() {
	}

	@Override
	public GaugeMetric newDepthMetric(String name) {
		return GAUGE;
	}

	@Override
	public CounterMetric newAddsMetric(String name) {
		return (amount) -> {
		};
	}

	@Override
	public HistogramMetric newLatencyMetric(String name) {
		return (value) -> {
		};
	}

	@Override
	public HistogramMetric newWorkDurationMetric(String name) {
		return newLatencyMetric(name);
	}

	@Override
	public SettableGaugeMetric newUnfinishedWorkSecondsMetric(String name) {
		return (value) -> {
		};
	}

	@Override
	public SettableGaugeMetric newLongestRunningProcessorSecondsMetric(String name) {
		return newUnfinishedWorkSecondsMetric(name);
	}

	@Override
	public CounterMetric newRetriesMetric(String name) {
		return newAddsMetric(name);
	}

	@Override
	public SettableGaugeMetric newWaitingMetric(String name) {
		return newUnfinishedWorkSecondsMetric(name);
	}

	@Override
	public CounterMetric newDroppedMetric(String name, DropReason reason) {
		return newAddsMetric(name);
	}

}
