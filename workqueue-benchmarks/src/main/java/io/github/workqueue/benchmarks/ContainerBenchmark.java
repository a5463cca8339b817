package io.github.workqueue.benchmarks;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;

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

import org.springframework.boot.WebApplicationType;
import org.springframework.boot.autoconfigure.ImportAutoConfiguration;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.context.annotation.Configuration;

import io.github.workqueue.autoconfigure.WorkQueueAutoConfiguration;
import io.github.workqueue.autoconfigure.WorkQueueRegistry;
import io.github.workqueue.spring.QueueWorker;
import io.github.workqueue.core.RateLimitingQueue;
import io.github.workqueue.core.WorkQueue;

/**
 * Workload 5: 100k distinct items through a no-op {@code @QueueWorker} with 4 workers,
 * against 4 plain threads doing get and done on a queue; an operation is one item.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@OperationsPerInvocation(ContainerBenchmark.ITEMS)
public class ContainerBenchmark {

	static final int ITEMS = 100_000;

	static final AtomicLong processed = new AtomicLong();

	private final Integer[] items = Keys.distinct(ITEMS);

	private ConfigurableApplicationContext context;

	private RateLimitingQueue<Object> containerQueue;

	private WorkQueue<Integer> rawQueue;

	private final List<Thread> rawWorkers = new ArrayList<>();

	@Setup(Level.Trial)
	public void setUp() {
		this.context = new SpringApplicationBuilder(NoOpWorker.class).web(WebApplicationType.NONE)
			.properties("workqueue.queues.bench.workers=4", "spring.main.banner-mode=off", "logging.level.root=warn")
			.run();
		this.containerQueue = this.context.getBean(WorkQueueRegistry.class).getOrCreateQueue("bench");
		this.rawQueue = WorkQueue.builder().name("raw").build();
		for (int i = 0; i < 4; i++) {
			Thread worker = new Thread(this::rawLoop, "raw-worker-" + i);
			worker.start();
			this.rawWorkers.add(worker);
		}
	}

	private void rawLoop() {
		try {
			Optional<Integer> next;
			while ((next = this.rawQueue.get()).isPresent()) {
				processed.incrementAndGet();
				this.rawQueue.done(next.get());
			}
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
		}
	}

	@TearDown(Level.Trial)
	public void tearDown() {
		this.context.close();
		this.rawQueue.shutDown();
	}

	@Benchmark
	public long queueWorkerContainer() {
		return run((item) -> this.containerQueue.add(item));
	}

	@Benchmark
	public long rawGetDoneLoop() {
		return run((item) -> this.rawQueue.add(item));
	}

	private long run(java.util.function.Consumer<Integer> add) {
		long target = processed.get() + ITEMS;
		for (Integer item : this.items) {
			add.accept(item);
		}
		while (processed.get() < target) {
			LockSupport.parkNanos(20_000);
		}
		return target;
	}

	@Configuration(proxyBeanMethods = false)
	@ImportAutoConfiguration(WorkQueueAutoConfiguration.class)
	public static class NoOpWorker {

		@QueueWorker("bench")
		public void handle(Integer item) {
			processed.incrementAndGet();
		}

	}

}
