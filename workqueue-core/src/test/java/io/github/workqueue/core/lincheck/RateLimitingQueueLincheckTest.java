package io.github.workqueue.core.lincheck;

import java.time.Duration;

import org.jetbrains.kotlinx.lincheck.LinChecker;
import org.jetbrains.kotlinx.lincheck.annotations.Operation;
import org.jetbrains.kotlinx.lincheck.annotations.Param;
import org.jetbrains.kotlinx.lincheck.paramgen.IntGen;
import org.junit.jupiter.api.Test;

import io.github.workqueue.core.FakeClock;
import io.github.workqueue.core.RateLimitingQueue;
import io.github.workqueue.core.WorkQueue;
import io.github.workqueue.core.WorkQueueBuilder;
import io.github.workqueue.core.ratelimit.ExponentialFailureRateLimiter;

/**
 * Model-checks the three layers together (a rate-limiting queue is a delaying queue is a
 * queue) against {@link QueueModel}, with a fake clock stepped by one of the operations,
 * so that timers fire concurrently with adds, gets and shutdown. Without metrics;
 * {@link RateLimitingQueueWithMetricsLincheckTest} runs the same with metrics on and the
 * unfinished-work timer firing at every step.
 */
@Param(name = "key", gen = IntGen.class, conf = "1:3")
@Param(name = "delay", gen = IntGen.class, conf = "0:2")
public class RateLimitingQueueLincheckTest extends QueueOperations {

	private final FakeClock clock = new FakeClock();

	private final RateLimitingQueue<Integer> queue = configure(WorkQueue.builder().clock(this.clock))
		.buildRateLimiting(new ExponentialFailureRateLimiter<>(Duration.ofNanos(1), Duration.ofNanos(2)));

	WorkQueueBuilder configure(WorkQueueBuilder builder) {
		return builder;
	}

	@Override
	WorkQueue<Integer> queue() {
		return this.queue;
	}

	@Operation
	public void addAfter(@Param(name = "key") int key, @Param(name = "delay") int delay) {
		this.queue.addAfter(key, Duration.ofNanos(delay));
	}

	@Operation
	public int waitingLen() {
		return this.queue.waitingLen();
	}

	@Operation
	public void step() {
		this.clock.step(Duration.ofNanos(1));
	}

	@Operation
	public void addRateLimited(@Param(name = "key") int key) {
		this.queue.addRateLimited(key);
	}

	@Operation
	public void forget(@Param(name = "key") int key) {
		this.queue.forget(key);
	}

	@Operation
	public int numRequeues(@Param(name = "key") int key) {
		return this.queue.numRequeues(key);
	}

	@Test
	void modelCheck() {
		LinChecker.check(getClass(), Lincheck.options());
	}

}
