package io.github.workqueue.benchmarks;

import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

import io.kubernetes.client.extended.workqueue.DefaultWorkQueue;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OperationsPerInvocation;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.State;

import io.github.workqueue.core.WorkQueue;

/**
 * Workload 2: one producer thread adds 1M distinct items while the benchmark thread takes
 * and finishes them; an operation is one item through the queue.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@OperationsPerInvocation(PipelineBenchmark.ITEMS)
public class PipelineBenchmark {

	static final int ITEMS = 1_000_000;

	private final Integer[] items = Keys.distinct(ITEMS);

	@Benchmark
	public long workqueue() throws InterruptedException {
		WorkQueue<Integer> queue = WorkQueue.builder().build();
		Thread producer = start(() -> {
			for (Integer item : this.items) {
				queue.add(item);
			}
		});
		long sum = 0;
		for (int i = 0; i < ITEMS; i++) {
			Integer item = queue.get().orElseThrow();
			sum += item;
			queue.done(item);
		}
		producer.join();
		return sum;
	}

	@Benchmark
	public long kubernetesClientJava() throws InterruptedException {
		DefaultWorkQueue<Integer> queue = new DefaultWorkQueue<>();
		Thread producer = start(() -> {
			for (Integer item : this.items) {
				queue.add(item);
			}
		});
		long sum = 0;
		for (int i = 0; i < ITEMS; i++) {
			Integer item = queue.get();
			sum += item;
			queue.done(item);
		}
		producer.join();
		queue.shutDown();
		return sum;
	}

	@Benchmark
	public long linkedBlockingQueue() throws InterruptedException {
		LinkedBlockingQueue<Integer> queue = new LinkedBlockingQueue<>();
		Thread producer = start(() -> {
			for (Integer item : this.items) {
				queue.offer(item);
			}
		});
		long sum = 0;
		for (int i = 0; i < ITEMS; i++) {
			sum += queue.take();
		}
		producer.join();
		return sum;
	}

	private static Thread start(Runnable body) {
		Thread thread = new Thread(body, "producer");
		thread.start();
		return thread;
	}

}
