package io.github.workqueue.core;

import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicReferenceArray;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.fail;

/**
 * An interrupt must not swallow a wake-up: with two consumers blocked in {@code get}, one
 * interrupted just before an add, the add's one notification may choose the interrupted
 * consumer. Then that consumer throws and the other must still be woken, as a
 * {@code j.u.c.} condition hands a signal to the next waiter.
 */
class InterruptedConsumerTest {

	private static final int ROUNDS = 300;

	private final ExecutorService threads = Executors.newFixedThreadPool(2);

	@AfterEach
	void stopThreads() {
		this.threads.shutdownNow();
	}

	@ParameterizedTest(name = "delaying={0}, timed={1}")
	@CsvSource({ "false, false", "false, true", "true, false", "true, true" })
	void anInterruptedConsumerShouldNotSwallowTheWakeUpOfAnother(boolean delaying, boolean timed) throws Exception {
		for (int round = 0; round < ROUNDS; round++) {
			WorkQueueBuilder builder = WorkQueue.builder().name("interrupt");
			WorkQueue<String> queue = delaying ? builder.buildDelaying() : builder.build();
			AtomicReferenceArray<Thread> consumers = new AtomicReferenceArray<>(2);
			Future<Optional<String>> first = this.threads.submit(() -> {
				consumers.set(0, Thread.currentThread());
				return take(queue, timed);
			});
			Future<Optional<String>> second = this.threads.submit(() -> {
				consumers.set(1, Thread.currentThread());
				return take(queue, timed);
			});
			awaitBlocked(queue, consumers);
			consumers.get(0).interrupt();
			queue.add("item");
			Optional<String> firstTook = Optional.empty();
			try {
				firstTook = first.get(10, TimeUnit.SECONDS);
			}
			catch (ExecutionException ex) {
				assertThat(ex.getCause()).isInstanceOf(InterruptedException.class);
			}
			if (firstTook.isPresent()) {
				// The interrupt came after the item was taken: the other consumer stays
				// blocked, as it should.
				queue.shutDown();
				assertThat(second.get(10, TimeUnit.SECONDS)).isEmpty();
				continue;
			}
			try {
				assertThat(second.get(5, TimeUnit.SECONDS)).as("round %d", round).contains("item");
			}
			catch (TimeoutException ex) {
				fail("round %d: the second consumer stayed blocked while len() == %d", round, queue.len());
			}
			finally {
				queue.shutDown();
			}
		}
	}

	private static Optional<String> take(WorkQueue<String> queue, boolean timed) throws InterruptedException {
		return timed ? queue.get(Duration.ofMinutes(1)) : queue.get();
	}

	/** Waits until every consumer waits on the queue's monitor in get. */
	private static void awaitBlocked(WorkQueue<String> queue, AtomicReferenceArray<Thread> consumers) {
		long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
		while (System.nanoTime() < deadline) {
			boolean all = true;
			for (int i = 0; i < consumers.length(); i++) {
				Thread consumer = consumers.get(i);
				all &= consumer != null && isInGet(consumer) && (consumer.getState() == Thread.State.WAITING
						|| consumer.getState() == Thread.State.TIMED_WAITING);
			}
			if (all) {
				return;
			}
			Thread.onSpinWait();
		}
		fail("the consumers did not block in get of %s", queue);
	}

	private static boolean isInGet(Thread thread) {
		for (StackTraceElement frame : thread.getStackTrace()) {
			if (frame.getMethodName().equals("get") && frame.getClassName().endsWith("DefaultWorkQueue")) {
				return true;
			}
		}
		return false;
	}

}
