package io.github.workqueue.test;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;

import org.jspecify.annotations.Nullable;

import io.github.workqueue.autoconfigure.WorkQueueRegistry;
import io.github.workqueue.core.FakeClock;
import io.github.workqueue.core.RateLimitingQueue;
import io.github.workqueue.spring.QueueWorkerContainer;
import io.github.workqueue.spring.QueueWorkerRegistry;
import io.github.workqueue.test.internal.OutcomeRecorder;

/**
 * What a test of {@code @QueueWorker} methods needs around the queues, without sleeps: it
 * waits until a queue is idle ({@link #awaitIdle(String)}), moves the
 * {@link FakeQueueClock fake clock} and waits for what came due
 * ({@link #advance(Duration)}), and tells what became of each processing
 * ({@link #outcomes(String)}). A bean in every application context that has
 * {@code workqueue-test} on its class path; inject it into the test.
 *
 * <p>
 * A queue is idle when nothing is queued, no worker is processing an item, and no item
 * that a processing added again (a retry after a failure, a requeue) is due before the
 * wait's deadline (with the fake clock: is due already) and still to start. Keys added
 * with a delay by the application itself, and re-adds due after the deadline, are not
 * waited for. To tell a worker back in {@code get} from one that has just taken an item,
 * idleness must hold for three reads in a row, 10 ms apart, with no processing ending
 * between them.
 *
 * <p>
 * <b>Concurrency.</b> Thread-safe; meant for the test's thread.
 */
public final class QueueTester {

	/** How long {@link #awaitIdle(String)} and {@link #advance(Duration)} wait. */
	public static final Duration DEFAULT_TIMEOUT = Duration.ofSeconds(10);

	private static final long READ_INTERVAL_NANOS = TimeUnit.MILLISECONDS.toNanos(10);

	private static final int QUIET_READS = 3;

	private final WorkQueueRegistry queues;

	private final QueueWorkerRegistry workers;

	private final OutcomeRecorder recorder;

	private final @Nullable FakeClock clock;

	/**
	 * @param queues the application's queues
	 * @param workers the application's worker containers
	 * @param recorder the outcomes heard
	 * @param clock the queues' fake clock, if they run on one
	 */
	public QueueTester(WorkQueueRegistry queues, QueueWorkerRegistry workers, OutcomeRecorder recorder,
			@Nullable FakeClock clock) {
		this.queues = queues;
		this.workers = workers;
		this.recorder = recorder;
		this.clock = clock;
	}

	/**
	 * Waits until the queue is idle, at most {@link #DEFAULT_TIMEOUT}.
	 * @param queueName the queue
	 * @throws AssertionError if it is not idle in time, saying what was still pending
	 */
	public void awaitIdle(String queueName) {
		awaitIdle(queueName, DEFAULT_TIMEOUT);
	}

	/**
	 * Waits until the queue is idle, at most the timeout.
	 * @param queueName the queue
	 * @param timeout how long to wait
	 * @throws AssertionError if it is not idle in time, saying what was still pending
	 */
	public void awaitIdle(String queueName, Duration timeout) {
		RateLimitingQueue<Object> queue = this.queues.queue(queueName);
		QueueWorkerContainer container = this.workers.getContainer(queueName);
		long deadline = System.nanoTime() + timeout.toNanos();
		int quiet = 0;
		long endedBefore = -1;
		while (true) {
			long ended = this.recorder.ended(queueName);
			Pending pending = pending(queueName, queue, container, deadline);
			quiet = (pending.isNone() && ended == endedBefore) ? quiet + 1 : (pending.isNone() ? 1 : 0);
			if (quiet >= QUIET_READS) {
				return;
			}
			endedBefore = ended;
			if (System.nanoTime() - deadline > 0) {
				throw new AssertionError("Queue '" + queueName + "' was not idle within " + timeout + ": " + pending);
			}
			LockSupport.parkNanos(READ_INTERVAL_NANOS);
		}
	}

	/** Waits until every queue of the application is idle, at most the timeout in all. */
	public void awaitAllIdle(Duration timeout) {
		long deadline = System.nanoTime() + timeout.toNanos();
		for (String name : this.queues.getQueues().keySet()) {
			awaitIdle(name, Duration.ofNanos(Math.max(0, deadline - System.nanoTime())));
		}
	}

	/**
	 * Moves the fake clock forward, then waits until every queue is idle: what came due
	 * (delays, retries, rate limits) has been processed.
	 * @param duration how far to move the clock
	 * @throws IllegalStateException if the queues do not run on a fake clock
	 */
	public void advance(Duration duration) {
		if (this.clock == null) {
			throw new IllegalStateException("The queues do not run on a fake clock: annotate the test class with "
					+ "@FakeQueueClock (or set workqueue.test.fake-clock=true)");
		}
		this.clock.step(duration);
		awaitAllIdle(DEFAULT_TIMEOUT);
	}

	/**
	 * What became of each processing of the queue's items, in the order they ended.
	 * @param queueName the queue
	 * @return the outcomes
	 */
	public List<RecordedOutcome> outcomes(String queueName) {
		return this.recorder.outcomes().stream().filter((outcome) -> outcome.queue().equals(queueName)).toList();
	}

	/**
	 * What became of each processing of one item of the queue, in the order they ended.
	 * @param queueName the queue
	 * @param item the item
	 * @return the outcomes
	 */
	public List<RecordedOutcome> outcomes(String queueName, Object item) {
		return outcomes(queueName).stream().filter((outcome) -> Objects.equals(outcome.item(), item)).toList();
	}

	/** Forgets the outcomes recorded so far, so that a test can start afresh. */
	public void clearOutcomes() {
		this.recorder.clear();
	}

	private Pending pending(String queueName, RateLimitingQueue<Object> queue, @Nullable QueueWorkerContainer container,
			long deadline) {
		long horizon = (this.clock != null) ? 0 : Math.max(0, deadline - System.nanoTime());
		List<Object> processing = new ArrayList<>();
		if (container != null) {
			container.processing().forEach((running) -> processing.add(running.item()));
		}
		int inFlight = (container != null) ? container.inFlight() : 0;
		return new Pending(queue.len(), inFlight, processing, this.recorder.dueWithin(queueName, horizon));
	}

	/** What keeps a queue from being idle. */
	private record Pending(int queued, int inFlight, List<Object> processing, List<Object> readded) {

		boolean isNone() {
			return this.queued == 0 && this.inFlight == 0 && this.readded.isEmpty();
		}

		@Override
		public String toString() {
			return this.queued + " queued, " + this.inFlight + " processing " + this.processing + ", "
					+ this.readded.size() + " added again by a processing and not started since " + this.readded;
		}

	}

}
