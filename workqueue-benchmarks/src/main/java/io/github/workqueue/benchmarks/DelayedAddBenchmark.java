package io.github.workqueue.benchmarks;

import java.time.Duration;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.DelayQueue;
import java.util.concurrent.Delayed;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;

import io.kubernetes.client.extended.workqueue.DefaultDelayingQueue;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;

import io.github.workqueue.core.DelayingQueue;
import io.github.workqueue.core.WorkQueue;

/**
 * Workload 4, insertion: {@code size} calls of addAfter with random delays within 10s
 * into a fresh queue; the score is the time for all {@code size} calls. How many items
 * arrive, and how late, is measured by {@link DelayedArrivalMeasurement}.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
public class DelayedAddBenchmark {

	@Param({ "100000", "1000000" })
	public int size;

	private Integer[] items;

	private Duration[] delays;

	private DelayingQueue<Integer> ours;

	private ExecutorService kubernetesExecutor;

	private DefaultDelayingQueue<Integer> kubernetes;

	private DelayQueue<DelayedItem> jdk;

	private ConcurrentHashMap<Integer, DelayedItem> jdkWaiting;

	@Setup(Level.Trial)
	public void prepare() {
		this.items = Keys.distinct(this.size);
		this.delays = new Duration[this.size];
		ThreadLocalRandom random = ThreadLocalRandom.current();
		for (int i = 0; i < this.size; i++) {
			this.delays[i] = Duration.ofNanos(1 + random.nextLong(Duration.ofSeconds(10).toNanos()));
		}
	}

	@Setup(Level.Invocation)
	public void setUp() {
		this.ours = WorkQueue.builder().buildDelaying();
		this.kubernetesExecutor = Executors.newSingleThreadExecutor();
		this.kubernetes = new DefaultDelayingQueue<>(this.kubernetesExecutor);
		this.jdk = new DelayQueue<>();
		this.jdkWaiting = new ConcurrentHashMap<>();
	}

	@TearDown(Level.Invocation)
	public void tearDown() {
		this.ours.shutDown();
		this.kubernetes.shutDown();
		this.kubernetesExecutor.shutdownNow();
	}

	@Benchmark
	public int workqueue() {
		for (int i = 0; i < this.size; i++) {
			this.ours.addAfter(this.items[i], this.delays[i]);
		}
		return this.ours.waitingLen();
	}

	@Benchmark
	public int kubernetesClientJava() {
		for (int i = 0; i < this.size; i++) {
			this.kubernetes.addAfter(this.items[i], this.delays[i]);
		}
		return this.kubernetes.length();
	}

	/** The floor: one clock reading for all {@code size} elements. */
	@Benchmark
	public int delayQueue() {
		long now = System.nanoTime();
		for (int i = 0; i < this.size; i++) {
			this.jdk.put(new DelayedItem(this.items[i], now + this.delays[i].toNanos()));
		}
		return this.jdk.size();
	}

	/**
	 * {@link #delayQueue()} as its users turn a delay into an element: each element's
	 * ready time read from the clock when it is put, as
	 * {@code ScheduledThreadPoolExecutor} does for each task; {@code addAfter} reads the
	 * clock once per call too.
	 */
	@Benchmark
	public int delayQueueClockPerPut() {
		for (int i = 0; i < this.size; i++) {
			this.jdk.put(new DelayedItem(this.items[i], System.nanoTime() + this.delays[i].toNanos()));
		}
		return this.jdk.size();
	}

	/**
	 * {@link #delayQueueClockPerPut()} with what its users add to get {@code addAfter}'s
	 * guarantee that a key waits once: a concurrent map of the waiting keys, which the
	 * consumer that takes an element would remove it from. A put whose key already waits
	 * is skipped; the keys here are distinct, so none is, and an earlier ready time for a
	 * waiting key (a removal from the {@code DelayQueue}, linear in its size) never
	 * arises.
	 */
	@Benchmark
	public int delayQueueWithWaitingKeys() {
		for (int i = 0; i < this.size; i++) {
			Integer item = this.items[i];
			DelayedItem element = new DelayedItem(item, System.nanoTime() + this.delays[i].toNanos());
			if (this.jdkWaiting.putIfAbsent(item, element) == null) {
				this.jdk.put(element);
			}
		}
		return this.jdk.size();
	}

	/** A DelayQueue element: the item and its ready time. */
	record DelayedItem(Integer item, long readyAt) implements Delayed {

		@Override
		public long getDelay(TimeUnit unit) {
			return unit.convert(this.readyAt - System.nanoTime(), TimeUnit.NANOSECONDS);
		}

		@Override
		public int compareTo(Delayed other) {
			return Long.compare(this.readyAt, ((DelayedItem) other).readyAt);
		}

	}

}
