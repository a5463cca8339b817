package io.github.workqueue.test.internal;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.LongSupplier;

import io.github.workqueue.spring.ItemProcessingListener;
import io.github.workqueue.spring.ProcessingOutcome;
import io.github.workqueue.test.RecordedOutcome;

/**
 * Hears every processing of every container and keeps what became of it, in the order the
 * processings ended, and the re-adds they scheduled (a retry, a requeue) until the item
 * starts again: what {@link io.github.workqueue.test.QueueTester} waits for.
 *
 * <p>
 * <b>Concurrency.</b> Thread-safe: workers call it, a test reads it; this object's
 * monitor guards {@code outcomes}, {@code ended} and {@code scheduled}.
 */
public final class OutcomeRecorder implements ItemProcessingListener {

	private final LongSupplier nanoTime;

	private final List<RecordedOutcome> outcomes = new ArrayList<>();

	/** Per queue, how many processings ended. */
	private final Map<String, Long> ended = new HashMap<>();

	/** Per queue and item, when (nanoTime) a re-add a processing scheduled comes due. */
	private final Map<String, Map<Object, Long>> scheduled = new HashMap<>();

	/**
	 * @param nanoTime the clock the queues' delays pass on
	 */
	public OutcomeRecorder(LongSupplier nanoTime) {
		this.nanoTime = nanoTime;
	}

	@Override
	public synchronized void started(String queueName, Object item) {
		Map<Object, Long> due = this.scheduled.get(queueName);
		if (due != null) {
			due.remove(item);
		}
	}

	@Override
	public synchronized void ended(String queueName, Object item, ProcessingOutcome outcome) {
		this.outcomes.add(new RecordedOutcome(queueName, item, outcome));
		this.ended.merge(queueName, 1L, Long::sum);
		if (outcome.addedAgain()) {
			long delay = (outcome.delay() != null) ? outcome.delay().toNanos() : 0;
			this.scheduled.computeIfAbsent(queueName, (name) -> new HashMap<>())
				.put(item, this.nanoTime.getAsLong() + delay);
		}
	}

	/** The outcomes so far, of every queue, in the order their processings ended. */
	public synchronized List<RecordedOutcome> outcomes() {
		return List.copyOf(this.outcomes);
	}

	/** How many processings of the queue ended so far. */
	public synchronized long ended(String queueName) {
		return this.ended.getOrDefault(queueName, 0L);
	}

	/**
	 * The items of the queue that a processing added again and that have not started
	 * since, due within the horizon (nanoseconds from now).
	 */
	public synchronized List<Object> dueWithin(String queueName, long horizonNanos) {
		Map<Object, Long> due = this.scheduled.getOrDefault(queueName, Map.of());
		long limit = this.nanoTime.getAsLong() + horizonNanos;
		return due.entrySet().stream().filter((entry) -> entry.getValue() - limit <= 0).map(Map.Entry::getKey).toList();
	}

	/** Forgets what was recorded (not the re-adds still to come). */
	public synchronized void clear() {
		this.outcomes.clear();
	}

}
