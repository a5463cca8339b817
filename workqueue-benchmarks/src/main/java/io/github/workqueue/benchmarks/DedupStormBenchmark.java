package io.github.workqueue.benchmarks;

import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;

import io.kubernetes.client.extended.workqueue.DefaultWorkQueue;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Group;
import org.openjdk.jmh.annotations.GroupThreads;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;

import io.github.workqueue.core.WorkQueue;

/**
 * Workload 3: four producers add keys from a set of 64 in tight loops while one consumer
 * takes and finishes items. Reported per thread role: the producers' add rate and the
 * consumer's items/s ({@code consumed}, an auxiliary counter of items taken). The
 * consumer blocks in {@code get()} as a real worker does; at the end of an iteration JMH
 * keeps the producers running until every thread has finished its call, so a blocked
 * consumer is always woken.
 */
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
public class DedupStormBenchmark {

	static final int KEYS = 64;

	@State(Scope.Group)
	public static class Queues {

		final Integer[] keys = Keys.distinct(KEYS);

		WorkQueue<Integer> ours;

		DefaultWorkQueue<Integer> kubernetes;

		@Setup(Level.Iteration)
		public void setUp() {
			this.ours = WorkQueue.builder().build();
			this.kubernetes = new DefaultWorkQueue<>();
		}

		@TearDown(Level.Iteration)
		public void tearDown() {
			this.ours.shutDown();
			this.kubernetes.shutDown();
		}

		Integer randomKey() {
			return this.keys[ThreadLocalRandom.current().nextInt(KEYS)];
		}

	}

	@Benchmark
	@Group("workqueue")
	@GroupThreads(4)
	public void workqueueAdd(Queues queues) {
		queues.ours.add(queues.randomKey());
	}

	@Benchmark
	@Group("workqueue")
	@GroupThreads(1)
	public void workqueueConsume(Queues queues, ConsumedItems consumed) throws InterruptedException {
		Integer item = queues.ours.get().orElseThrow();
		queues.ours.done(item);
		consumed.consumed++;
	}

	@Benchmark
	@Group("kubernetesClientJava")
	@GroupThreads(4)
	public void kubernetesAdd(Queues queues) {
		queues.kubernetes.add(queues.randomKey());
	}

	@Benchmark
	@Group("kubernetesClientJava")
	@GroupThreads(1)
	public void kubernetesConsume(Queues queues, ConsumedItems consumed) throws InterruptedException {
		Integer item = queues.kubernetes.get();
		queues.kubernetes.done(item);
		consumed.consumed++;
	}

}
