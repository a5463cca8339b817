package io.github.workqueue.core.lincheck;

import java.time.Duration;

import org.jetbrains.kotlinx.lincheck.annotations.Operation;
import org.jetbrains.kotlinx.lincheck.annotations.Param;
import org.jetbrains.kotlinx.lincheck.paramgen.IntGen;
import org.jspecify.annotations.Nullable;

import io.github.workqueue.core.WorkQueue;

/**
 * The FIFO layer's operations, which the model checks of every layer run: each test class
 * gives the queue and adds its layer's operations.
 */
@Param(name = "key", gen = IntGen.class, conf = "1:3")
public abstract class QueueOperations {

	abstract WorkQueue<Integer> queue();

	@Operation
	public void add(@Param(name = "key") int key) {
		queue().add(key);
	}

	@Operation
	public @Nullable Integer get() throws InterruptedException {
		return queue().get(Duration.ZERO).orElse(null);
	}

	@Operation
	public void done(@Param(name = "key") int key) {
		queue().done(key);
	}

	@Operation
	public boolean remove(@Param(name = "key") int key) {
		return queue().remove(key);
	}

	@Operation
	public int len() {
		return queue().len();
	}

	@Operation
	public void shutDown() {
		queue().shutDown();
	}

	@Operation
	public boolean isShuttingDown() {
		return queue().isShuttingDown();
	}

}
