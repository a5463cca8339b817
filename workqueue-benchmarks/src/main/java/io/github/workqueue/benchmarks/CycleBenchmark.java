package io.github.workqueue.benchmarks;

import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

import io.kubernetes.client.extended.workqueue.DefaultWorkQueue;
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
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.infra.Blackhole;

import io.github.workqueue.autoconfigure.metrics.MicrometerMetricsProvider;
import io.github.workqueue.core.WorkQueue;
import io.github.workqueue.core.trace.TracedQueue;

/**
 * Workloads 1 and 6: one thread adds 1024 distinct keys, then takes and finishes each. An
 * operation is one item's add, get and done; in the hot-key runs, one item's get, add
 * while processing, and done (which queues it again). The JDK's LinkedBlockingQueue
 * (offer and take, no dedup) is the floor; metrics on against off, on Micrometer's
 * Prometheus registry (what a Spring Boot application scrapes) and on its simple
 * registry. What the metrics alone cost per item is {@link MetricsFloorBenchmark}.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@OperationsPerInvocation(CycleBenchmark.KEYS)
public class CycleBenchmark {

	static final int KEYS = 1024;

	/** The context each traced add carries: a W3C traceparent. */
	private static final String CONTEXT = "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01";

	private final Integer[] keys = Keys.distinct(KEYS);

	private WorkQueue<Integer> ours;

	private WorkQueue<Integer> oursWithMetrics;

	private WorkQueue<Integer> oursWithSimpleMetrics;

	private WorkQueue<Integer> oursTraced;

	private DefaultWorkQueue<Integer> kubernetes;

	private LinkedBlockingQueue<Integer> jdk;

	/** Every key queued, for the hot-key runs. */
	private WorkQueue<Integer> oursHot;

	private DefaultWorkQueue<Integer> kubernetesHot;

	@Setup(Level.Trial)
	public void setUp() {
		this.ours = WorkQueue.builder().name("cycle").build();
		this.oursWithMetrics = WorkQueue.builder()
			.name("cycle")
			.metricsProvider(new MicrometerMetricsProvider(new PrometheusMeterRegistry(PrometheusConfig.DEFAULT)))
			.build();
		this.oursWithSimpleMetrics = WorkQueue.builder()
			.name("cycle")
			.metricsProvider(new MicrometerMetricsProvider(new SimpleMeterRegistry()))
			.build();
		this.oursTraced = WorkQueue.builder().name("cycle").traceCapture(() -> CONTEXT).build();
		this.kubernetes = new DefaultWorkQueue<>();
		this.jdk = new LinkedBlockingQueue<>();
		this.oursHot = WorkQueue.builder().name("cycle").build();
		this.kubernetesHot = new DefaultWorkQueue<>();
		for (Integer key : this.keys) {
			this.oursHot.add(key);
			this.kubernetesHot.add(key);
		}
	}

	@TearDown(Level.Trial)
	public void tearDown() {
		this.ours.shutDown();
		this.oursWithMetrics.shutDown();
		this.oursWithSimpleMetrics.shutDown();
		this.oursTraced.shutDown();
		this.kubernetes.shutDown();
		this.oursHot.shutDown();
		this.kubernetesHot.shutDown();
	}

	@Benchmark
	public void workqueue(Blackhole blackhole) throws InterruptedException {
		cycle(this.ours, blackhole);
	}

	@Benchmark
	public void workqueueWithMetrics(Blackhole blackhole) throws InterruptedException {
		cycle(this.oursWithMetrics, blackhole);
	}

	@Benchmark
	public void workqueueWithSimpleMetrics(Blackhole blackhole) throws InterruptedException {
		cycle(this.oursWithSimpleMetrics, blackhole);
	}

	/**
	 * Every add carries a trace context (a capture that returns one, as a tracer with a
	 * current span does, without the tracer's own cost), and each processing reads its
	 * item's, as the worker container does.
	 */
	@Benchmark
	@SuppressWarnings("unchecked")
	public void workqueueTraced(Blackhole blackhole) throws InterruptedException {
		for (Integer key : this.keys) {
			this.oursTraced.add(key);
		}
		for (int i = 0; i < KEYS; i++) {
			Integer item = this.oursTraced.get().orElseThrow();
			blackhole.consume(((TracedQueue<Integer>) this.oursTraced).addTraces(item));
			this.oursTraced.done(item);
		}
	}

	private void cycle(WorkQueue<Integer> queue, Blackhole blackhole) throws InterruptedException {
		for (Integer key : this.keys) {
			queue.add(key);
		}
		for (int i = 0; i < KEYS; i++) {
			Integer item = queue.get().orElseThrow();
			blackhole.consume(item);
			queue.done(item);
		}
	}

	@Benchmark
	public void kubernetesClientJava(Blackhole blackhole) throws InterruptedException {
		for (Integer key : this.keys) {
			this.kubernetes.add(key);
		}
		for (int i = 0; i < KEYS; i++) {
			Integer item = this.kubernetes.get();
			blackhole.consume(item);
			this.kubernetes.done(item);
		}
	}

	/**
	 * A hot key re-added while it is processing: take it, add it again (it goes dirty),
	 * finish it (it is queued again). Every item of the queue is one such key.
	 */
	@Benchmark
	public void workqueueHotKeys(Blackhole blackhole) throws InterruptedException {
		WorkQueue<Integer> queue = this.oursHot;
		for (int i = 0; i < KEYS; i++) {
			Integer item = queue.get().orElseThrow();
			queue.add(item);
			blackhole.consume(item);
			queue.done(item);
		}
	}

	@Benchmark
	public void kubernetesClientJavaHotKeys(Blackhole blackhole) throws InterruptedException {
		DefaultWorkQueue<Integer> queue = this.kubernetesHot;
		for (int i = 0; i < KEYS; i++) {
			Integer item = queue.get();
			queue.add(item);
			blackhole.consume(item);
			queue.done(item);
		}
	}

	@Benchmark
	public void linkedBlockingQueue(Blackhole blackhole) throws InterruptedException {
		for (Integer key : this.keys) {
			this.jdk.offer(key);
		}
		for (int i = 0; i < KEYS; i++) {
			blackhole.consume(this.jdk.take());
		}
	}

}
