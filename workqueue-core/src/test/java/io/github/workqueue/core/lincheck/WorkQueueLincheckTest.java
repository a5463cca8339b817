package io.github.workqueue.core.lincheck;

import org.jetbrains.kotlinx.lincheck.LinChecker;
import org.jetbrains.kotlinx.lincheck.annotations.Param;
import org.jetbrains.kotlinx.lincheck.paramgen.IntGen;
import org.junit.jupiter.api.Test;

import io.github.workqueue.core.WorkQueue;
import io.github.workqueue.core.WorkQueueBuilder;

/**
 * Model-checks the FIFO layer against {@link QueueModel}: every interleaving Lincheck
 * explores must be linearizable. Without metrics;
 * {@link WorkQueueWithMetricsLincheckTest} runs the same with metrics on.
 */
@Param(name = "key", gen = IntGen.class, conf = "1:3")
public class WorkQueueLincheckTest extends QueueOperations {

	private final WorkQueue<Integer> queue = configure(WorkQueue.builder()).build();

	WorkQueueBuilder configure(WorkQueueBuilder builder) {
		return builder;
	}

	@Override
	WorkQueue<Integer> queue() {
		return this.queue;
	}

	@Test
	void modelCheck() {
		LinChecker.check(getClass(), Lincheck.options());
	}

}
