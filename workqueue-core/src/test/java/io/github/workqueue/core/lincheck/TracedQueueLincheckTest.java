package io.github.workqueue.core.lincheck;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

import org.jetbrains.kotlinx.lincheck.LinChecker;
import org.jetbrains.kotlinx.lincheck.annotations.Operation;
import org.jetbrains.kotlinx.lincheck.annotations.Param;
import org.jetbrains.kotlinx.lincheck.paramgen.IntGen;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.Test;

import io.github.workqueue.core.WorkQueue;
import io.github.workqueue.core.trace.AddTraces;
import io.github.workqueue.core.trace.TracedQueue;

/**
 * Model-checks the trace contexts of the FIFO layer against {@link TracedQueueModel}:
 * adds that carry a context (the adding thread's, as a tracer keeps it) racing the take
 * that hands the contexts to a processing, a remove and shutdown. A take and the worker's
 * read of its item's contexts are one operation: the read sees only what the take (on the
 * same thread) wrote, so it is linearizable at the take. That holds while the processing
 * lasts, that is until the worker's own {@code done} ({@link TracedQueue}'s contract);
 * this checker cannot tie a {@code done} to the thread that took the item (any thread may
 * call one here, which ends another thread's processing under its read), so {@code done}
 * and the re-queue it makes are checked by {@code TracedAddsTest} and
 * {@code TracedAddsStressTest} instead.
 */
@Param(name = "key", gen = IntGen.class, conf = "1:2")
@Param(name = "context", gen = IntGen.class, conf = "1:3")
public class TracedQueueLincheckTest {

	/** The adding thread's current context, as a tracer keeps it. */
	private static final ThreadLocal<String> CURRENT = new ThreadLocal<>();

	private final WorkQueue<Integer> queue = WorkQueue.builder().traceCapture(CURRENT::get).build();

	/** An item taken with its contexts, as the model and the queue both write it. */
	static String describe(Integer item, @Nullable List<Integer> contexts) {
		return item + ":" + ((contexts != null) ? contexts : List.of());
	}

	@Operation
	public void addTraced(@Param(name = "key") int key, @Param(name = "context") int context) {
		CURRENT.set(Integer.toString(context));
		try {
			this.queue.add(key);
		}
		finally {
			CURRENT.remove();
		}
	}

	@Operation
	@SuppressWarnings("unchecked")
	public @Nullable String getWithTraces() throws InterruptedException {
		Optional<Integer> item = this.queue.get(java.time.Duration.ZERO);
		if (item.isEmpty()) {
			return null;
		}
		Optional<AddTraces> traces = ((TracedQueue<Integer>) this.queue).addTraces(item.get());
		List<Integer> contexts = null;
		if (traces.isPresent()) {
			contexts = new ArrayList<>();
			contexts.add(Integer.valueOf(traces.get().parent()));
			for (String link : traces.get().links()) {
				contexts.add(Integer.valueOf(link));
			}
		}
		return describe(item.get(), contexts);
	}

	@Operation
	public boolean remove(@Param(name = "key") int key) {
		return this.queue.remove(key);
	}

	@Operation
	public void shutDown() {
		this.queue.shutDown();
	}

	@Test
	void modelCheck() {
		LinChecker.check(getClass(), Lincheck.options(TracedQueueModel.class));
	}

}
