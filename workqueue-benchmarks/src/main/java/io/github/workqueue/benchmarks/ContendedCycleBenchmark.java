package io.github.workqueue.benchmarks;

import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.LockSupport;

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
import org.openjdk.jmh.infra.Control;

import io.github.workqueue.core.WorkQueue;

/**
 * The cycle under contention: two producers add distinct keys (each its own half of a
 * ring of 2^20) while two consumers take and finish items, blocking in {@code get()} as
 * workers do. The score is {@code consumed}, items through the whole cycle per second;
 * when the producers run a ring ahead, their adds find keys still queued and are
 * deduplicated, as a real producer's would be.
 */
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
public class ContendedCycleBenchmark {

	static final int RING = 1 << 20;

	@State(Scope.Group)
	public static class Queues {

		final Integer[] keys = Keys.distinct(RING);

		WorkQueue<Integer> ours;

		DefaultWorkQueue<Integer> kubernetes;

		/** Set once a thread sees the measurement stop. */
		volatile boolean ending;

		private volatile boolean closed;

		private Thread waker;

		@Setup(Level.Iteration)
		public void setUp() {
			this.ours = WorkQueue.builder().build();
			this.kubernetes = new DefaultWorkQueue<>();
			this.ending = false;
			this.closed = false;
			this.waker = new Thread(this::wakeBlockedConsumers, "waker");
			this.waker.setDaemon(true);
			this.waker.start();
		}

		/**
		 * Once the measurement stops, adds a key outside the ring every millisecond: the
		 * producers leave as soon as every thread has seen the end, and a consumer's last
		 * call may then be blocked in {@code get()} on an empty queue, which would hold
		 * the iteration's tear-down for ever.
		 */
		private void wakeBlockedConsumers() {
			int key = -1;
			while (!this.closed) {
				if (this.ending) {
					this.ours.add(key);
					this.kubernetes.add(key);
					key--;
				}
				LockSupport.parkNanos(1_000_000);
			}
		}

		@TearDown(Level.Iteration)
		public void tearDown() throws InterruptedException {
			this.closed = true;
			this.waker.join();
			this.ours.shutDown();
			this.kubernetes.shutDown();
		}

	}

	/** A producer's place in the ring: the two producers take alternate keys. */
	@State(Scope.Thread)
	public static class Producer {

		private static final AtomicInteger PRODUCERS = new AtomicInteger();

		private int next;

		@Setup(Level.Trial)
		public void place() {
			this.next = PRODUCERS.getAndIncrement() & 1;
		}

		Integer nextKey(Queues queues) {
			Integer key = queues.keys[this.next];
			this.next = (this.next + 2) & (RING - 1);
			return key;
		}

	}

	@Benchmark
	@Group("workqueue")
	@GroupThreads(2)
	public void workqueueAdd(Queues queues, Producer producer, Control control) {
		queues.ours.add(producer.nextKey(queues));
		if (control.stopMeasurement) {
			queues.ending = true;
		}
	}

	@Benchmark
	@Group("workqueue")
	@GroupThreads(2)
	public void workqueueConsume(Queues queues, ConsumedItems consumed) throws InterruptedException {
		Integer item = queues.ours.get().orElseThrow();
		queues.ours.done(item);
		consumed.consumed++;
	}

	@Benchmark
	@Group("kubernetesClientJava")
	@GroupThreads(2)
	public void kubernetesAdd(Queues queues, Producer producer, Control control) {
		queues.kubernetes.add(producer.nextKey(queues));
		if (control.stopMeasurement) {
			queues.ending = true;
		}
	}

	@Benchmark
	@Group("kubernetesClientJava")
	@GroupThreads(2)
	public void kubernetesConsume(Queues queues, ConsumedItems consumed) throws InterruptedException {
		Integer item = queues.kubernetes.get();
		queues.kubernetes.done(item);
		consumed.consumed++;
	}

}
