package io.github.workqueue.benchmarks;

import java.util.List;
import java.util.concurrent.TimeUnit;

import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OperationsPerInvocation;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.infra.Blackhole;

import io.github.workqueue.autoconfigure.metrics.MicrometerMetricsProvider;
import io.github.workqueue.core.AddOptions;
import io.github.workqueue.core.RateLimitingQueue;
import io.github.workqueue.core.WorkQueue;
import io.github.workqueue.core.WorkQueueBuilder;

/**
 * Issue 21's cost: {@link CycleBenchmark}'s cycle (one thread adds 1024 distinct keys,
 * then takes and finishes each) on a rate-limiting queue, plain (every add at the default
 * priority: the FIFO path), with three priorities (keys spread over them, each add naming
 * its priority), and with three priorities and fairness over 16 tenants. With metrics off
 * and on (Prometheus registry), as users run it.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@OperationsPerInvocation(PriorityBenchmark.KEYS)
public class PriorityBenchmark {

	static final int KEYS = 1024;

	private static final AddOptions[] PRIORITIES = { AddOptions.priority(-1), AddOptions.priority(0),
			AddOptions.priority(1) };

	/**
	 * The tenants' names, made once: a user's extractor reads an item's tenant, it does
	 * not format one.
	 */
	private static final String[] TENANTS = tenants(16);

	@Param({ "false", "true" })
	public boolean metrics;

	private final Integer[] keys = Keys.distinct(KEYS);

	private RateLimitingQueue<Integer> fifo;

	private RateLimitingQueue<Integer> priorities;

	private RateLimitingQueue<Integer> prioritiesAndFairness;

	@Setup(Level.Trial)
	public void setUp() {
		this.fifo = builder().buildRateLimiting();
		this.priorities = builder().buildRateLimiting();
		this.prioritiesAndFairness = builder().fairness((Integer key) -> List.of(TENANTS[key & 15]))
			.buildRateLimiting();
	}

	private static String[] tenants(int count) {
		String[] names = new String[count];
		for (int i = 0; i < count; i++) {
			names[i] = "tenant-" + i;
		}
		return names;
	}

	private WorkQueueBuilder builder() {
		WorkQueueBuilder builder = WorkQueue.builder().name("priorities");
		return this.metrics ? builder.metricsProvider(
				new MicrometerMetricsProvider(new PrometheusMeterRegistry(PrometheusConfig.DEFAULT))) : builder;
	}

	@TearDown(Level.Trial)
	public void tearDown() {
		this.fifo.shutDown();
		this.priorities.shutDown();
		this.prioritiesAndFairness.shutDown();
	}

	@Benchmark
	public void fifo(Blackhole blackhole) throws InterruptedException {
		for (Integer key : this.keys) {
			this.fifo.add(key);
		}
		drain(this.fifo, blackhole);
	}

	@Benchmark
	public void priorities(Blackhole blackhole) throws InterruptedException {
		addWithPriorities(this.priorities);
		drain(this.priorities, blackhole);
	}

	@Benchmark
	public void prioritiesAndFairness(Blackhole blackhole) throws InterruptedException {
		addWithPriorities(this.prioritiesAndFairness);
		drain(this.prioritiesAndFairness, blackhole);
	}

	private void addWithPriorities(RateLimitingQueue<Integer> queue) {
		for (int i = 0; i < KEYS; i++) {
			queue.add(this.keys[i], PRIORITIES[i % 3]);
		}
	}

	private static void drain(RateLimitingQueue<Integer> queue, Blackhole blackhole) throws InterruptedException {
		for (int i = 0; i < KEYS; i++) {
			Integer item = queue.get().orElseThrow();
			blackhole.consume(item);
			queue.done(item);
		}
	}

}
