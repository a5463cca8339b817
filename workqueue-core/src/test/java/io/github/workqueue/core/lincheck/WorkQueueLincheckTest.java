package io.github.workqueue.core.lincheck;

import java.time.Duration;

import org.jetbrains.kotlinx.lincheck.LinChecker;
import org.jetbrains.kotlinx.lincheck.annotations.Operation;
import org.jetbrains.kotlinx.lincheck.annotations.Param;
import org.jetbrains.kotlinx.lincheck.paramgen.IntGen;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.Test;

import io.github.workqueue.core.WorkQueue;
import io.github.workqueue.core.WorkQueueBuilder;

/**
 * Model-checks the FIFO layer against {@link QueueModel}: every interleaving Lincheck
 * explores must be linearizable. Without metrics;
 * {@link WorkQueueWithMetricsLincheckTest} runs the same with metrics on.
 */
@Param(name = "key", gen = IntGen.class, conf = "1:3")
public class WorkQueueLincheckTest {

	private final WorkQueue<Integer> queue = configure(WorkQueue.builder()).build();

	WorkQueueBuilder configure(WorkQueueBuilder builder) {
		return builder;
	}

	@Operation
	public void add(@Param(name = "key") int key) {
		this.queue.add(key);
	}

	@Operation
	public @Nullable Integer get() throws InterruptedException {
		return this.queue.get(Duration.ZERO).orElse(null);
	}

	@Operation
	public void done(@Param(name = "key") int key) {
		this.queue.done(key);
	}

	@Operation
	public int len() {
		return this.queue.len();
	}

	@Operation
	public void shutDown() {
		this.queue.shutDown();
	}

	@Operation
	public boolean isShuttingDown() {
		return this.queue.isShuttingDown();
	}

	@Test
	void modelCheck() {
		LinChecker.check(getClass(), Lincheck.options());
	}

}
