package io.github.workqueue.core.lincheck;

import java.time.Duration;

import org.jetbrains.kotlinx.lincheck.LinChecker;
import org.jetbrains.kotlinx.lincheck.annotations.Operation;
import org.jetbrains.kotlinx.lincheck.annotations.Param;
import org.jetbrains.kotlinx.lincheck.paramgen.IntGen;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.Test;

import io.github.workqueue.core.AddOptions;
import io.github.workqueue.core.FakeClock;
import io.github.workqueue.core.RateLimitingQueue;
import io.github.workqueue.core.WorkQueue;
import io.github.workqueue.core.WorkQueueBuilder;
import io.github.workqueue.core.ratelimit.ExponentialFailureRateLimiter;

/**
 * Model-checks priorities (no fairness) against {@link PriorityQueueModel}: adds of
 * several priorities, raises of queued, waiting and processing items, delayed adds with a
 * priority, and the FIFO's move to priority levels and back, all racing gets, dones and
 * shutdown. {@link FairQueueLincheckTest} runs the same with fairness keys.
 */
@Param(name = "key", gen = IntGen.class, conf = "1:3")
@Param(name = "priority", gen = IntGen.class, conf = "0:2")
@Param(name = "delay", gen = IntGen.class, conf = "0:1")
public class PriorityQueueLincheckTest extends QueueOperations {

	private final FakeClock clock = new FakeClock();

	private final RateLimitingQueue<Integer> queue = configure(WorkQueue.builder().clock(this.clock))
		.buildRateLimiting(new ExponentialFailureRateLimiter<>(Duration.ofNanos(1), Duration.ofNanos(2)));

	WorkQueueBuilder configure(WorkQueueBuilder builder) {
		return builder;
	}

	Class<?> specification() {
		return PriorityQueueModel.class;
	}

	@Override
	WorkQueue<Integer> queue() {
		return this.queue;
	}

	@Operation
	public void addWithPriority(@Param(name = "key") int key, @Param(name = "priority") int priority) {
		this.queue.add(key, AddOptions.priority(priority));
	}

	@Operation
	public void addAfterWithPriority(@Param(name = "key") int key, @Param(name = "delay") int delay,
			@Param(name = "priority") int priority) {
		this.queue.add(key, AddOptions.priority(priority).withDelay(Duration.ofNanos(delay)));
	}

	@Operation
	public @Nullable String getWithPriority() throws InterruptedException {
		return this.queue.getWithPriority(Duration.ZERO)
			.map((taken) -> taken.item() + "@" + taken.priority())
			.orElse(null);
	}

	@Operation
	public String lenByPriority() {
		return this.queue.lenByPriority().toString();
	}

	@Operation
	public void step() {
		this.clock.step(Duration.ofNanos(1));
	}

	@Test
	void modelCheck() {
		LinChecker.check(getClass(), Lincheck.options(specification()));
	}

}
