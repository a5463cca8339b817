package io.github.workqueue.benchmarks;

import java.util.concurrent.TimeUnit;

import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OperationsPerInvocation;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;

import io.github.workqueue.autoconfigure.metrics.MicrometerMetricsProvider;
import io.github.workqueue.core.Clock;
import io.github.workqueue.core.metrics.CounterMetric;
import io.github.workqueue.core.metrics.HistogramMetric;

/**
 * What client-go's metrics cost per item with no queue at all: three clock reads (added,
 * taken, done), the adds counter and two histogram records (queue latency and work
 * duration, client-go's buckets), through the same Micrometer binding the starter uses.
 * The queue's metrics-on cycle ({@link CycleBenchmark}) is held against this floor: its
 * extra cost over metrics off should be close to what this costs.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@OperationsPerInvocation(MetricsFloorBenchmark.ITEMS)
public class MetricsFloorBenchmark {

	static final int ITEMS = 1024;

	private final Clock clock = Clock.system();

	private CounterMetric prometheusAdds;

	private HistogramMetric prometheusLatency;

	private HistogramMetric prometheusWork;

	private CounterMetric simpleAdds;

	private HistogramMetric simpleLatency;

	private HistogramMetric simpleWork;

	@Setup(Level.Trial)
	public void setUp() {
		MicrometerMetricsProvider prometheus = provider(new PrometheusMeterRegistry(PrometheusConfig.DEFAULT));
		this.prometheusAdds = prometheus.newAddsMetric("floor");
		this.prometheusLatency = prometheus.newLatencyMetric("floor");
		this.prometheusWork = prometheus.newWorkDurationMetric("floor");
		MicrometerMetricsProvider simple = provider(new SimpleMeterRegistry());
		this.simpleAdds = simple.newAddsMetric("floor");
		this.simpleLatency = simple.newLatencyMetric("floor");
		this.simpleWork = simple.newWorkDurationMetric("floor");
	}

	private static MicrometerMetricsProvider provider(MeterRegistry registry) {
		return new MicrometerMetricsProvider(registry);
	}

	@Benchmark
	public long prometheus() {
		return items(this.prometheusAdds, this.prometheusLatency, this.prometheusWork);
	}

	@Benchmark
	public long simple() {
		return items(this.simpleAdds, this.simpleLatency, this.simpleWork);
	}

	private long items(CounterMetric adds, HistogramMetric latency, HistogramMetric work) {
		long sum = 0;
		for (int i = 0; i < ITEMS; i++) {
			long addedAt = this.clock.nanoTime();
			adds.inc();
			long takenAt = this.clock.nanoTime();
			latency.observe((takenAt - addedAt) / 1e9);
			long doneAt = this.clock.nanoTime();
			work.observe((doneAt - takenAt) / 1e9);
			sum += doneAt;
		}
		return sum;
	}

}
