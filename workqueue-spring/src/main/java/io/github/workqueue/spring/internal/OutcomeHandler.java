package io.github.workqueue.spring.internal;

import java.time.Duration;
import java.util.concurrent.atomic.LongAdder;

import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;

import org.springframework.context.ApplicationEventPublisher;

import io.github.workqueue.core.AddOptions;
import io.github.workqueue.core.DeadLetters;
import io.github.workqueue.core.FailedAttempts;
import io.github.workqueue.core.RateLimitingQueue;
import io.github.workqueue.spring.GiveUpReason;
import io.github.workqueue.spring.ItemGivenUpEvent;
import io.github.workqueue.spring.ProcessingOutcome;
import io.github.workqueue.spring.QueueWorkerContainer;
import io.github.workqueue.spring.WorkResult;

/**
 * Decides what becomes of an item after its worker method returned or threw, before its
 * {@code done}: a result forgets, requeues or resyncs it; a failure retries it through
 * the rate limiter until the {@link WorkerPolicy} says it is given up, which keeps it as
 * a dead letter, logs it and publishes an {@link ItemGivenUpEvent}. Counts each outcome.
 * Failed attempts are counted by the queue where it keeps them (queue-wide on Redis), or
 * here.
 *
 * <p>
 * <b>Concurrency.</b> Thread-safe: every worker of the container calls it, each for its
 * own item; the counters are adders.
 */
final class OutcomeHandler {

	private static final Log logger = LogFactory.getLog(QueueWorkerContainer.class);

	/** The outcome of every success: one instance, no allocation per item. */
	private static final ProcessingOutcome SUCCEEDED = new ProcessingOutcome(ProcessingOutcome.Kind.SUCCEEDED, 0, null,
			null, null);

	private final RateLimitingQueue<Object> queue;

	private final WorkerPolicy policy;

	private final ApplicationEventPublisher events;

	private final FailedAttempts<Object> failures;

	/** Where given-up items are kept: the queue's own store, or one in this process. */
	private final DeadLetters<Object> deadLetters;

	private final LongAdder succeeded = new LongAdder();

	private final LongAdder retried = new LongAdder();

	private final LongAdder givenUp = new LongAdder();

	OutcomeHandler(RateLimitingQueue<Object> queue, WorkerPolicy policy, ApplicationEventPublisher events,
			int deadLettersKept) {
		this.queue = queue;
		this.policy = policy;
		this.events = events;
		this.failures = failedAttempts(queue);
		this.deadLetters = deadLetters(queue, deadLettersKept);
	}

	@SuppressWarnings("unchecked")
	private static FailedAttempts<Object> failedAttempts(RateLimitingQueue<Object> queue) {
		return (queue instanceof FailedAttempts<?> shared) ? (FailedAttempts<Object>) shared
				: new LocalFailedAttempts(queue);
	}

	@SuppressWarnings("unchecked")
	private static DeadLetters<Object> deadLetters(RateLimitingQueue<Object> queue, int kept) {
		return (queue instanceof DeadLetters<?> own) ? (DeadLetters<Object>) own
				: new InProcessDeadLetters(queue, kept);
	}

	/** The attempt a call of the method on this item is: 1 plus its failures in a row. */
	int attempt(Object item) {
		return this.failures.failedAttempts(item) + 1;
	}

	/**
	 * The method returned: a success resets the failed attempts; a requeue keeps the
	 * limiter's memory, so that its backoff grows, and the other results forget it. A
	 * requeue happens before {@code done}, while the item is processing: it keeps its
	 * priority unless the result names a higher one.
	 * @return what became of the item
	 */
	ProcessingOutcome returned(Object item, WorkResult result) {
		this.succeeded.increment();
		Integer requeuePriority = result.priority();
		return switch (result.kind()) {
			case DONE -> {
				this.failures.clearFailedAttempts(item, true);
				yield SUCCEEDED;
			}
			case REQUEUE -> {
				this.failures.clearFailedAttempts(item, false);
				Duration delay = null;
				if (requeuePriority != null) {
					this.queue.add(item, AddOptions.rateLimited().withPriority(requeuePriority));
				}
				else {
					delay = this.queue.addRateLimited(item);
				}
				yield new ProcessingOutcome(ProcessingOutcome.Kind.REQUEUED, 0, delay, null, null);
			}
			case REQUEUE_AFTER -> {
				this.failures.clearFailedAttempts(item, true);
				if (requeuePriority != null) {
					this.queue.add(item, AddOptions.delay(result.delay()).withPriority(requeuePriority));
				}
				else {
					this.queue.addAfter(item, result.delay());
				}
				yield new ProcessingOutcome(ProcessingOutcome.Kind.REQUEUED_AFTER, 0, result.delay(), null, null);
			}
		};
	}

	/**
	 * The method threw: retried through the rate limiter, or given up.
	 * @return what became of the item
	 */
	ProcessingOutcome failed(Object item, Throwable failure) {
		int attempt = this.failures.recordFailedAttempt(item);
		if (this.policy.isNotRetryable(failure)) {
			return giveUp(item, GiveUpReason.NOT_RETRYABLE, attempt, failure);
		}
		if (this.policy.retriesExhausted(attempt - 1)) {
			return giveUp(item, GiveUpReason.MAX_RETRIES, attempt, failure);
		}
		this.retried.increment();
		Duration delay = this.queue.addRateLimited(item);
		logger.warn("Queue '" + this.queue.name() + "': item '" + item + "' failed (attempt " + attempt
				+ this.policy.ofMaxAttempts() + "), retrying in " + delay, failure);
		return new ProcessingOutcome(ProcessingOutcome.Kind.RETRIED, attempt, delay, failure, null);
	}

	/** The method cannot take the item: given up at once. */
	void wrongType(Object item, QueueWorkerMethod method) {
		giveUp(item, GiveUpReason.ITEM_TYPE_MISMATCH, 1,
				new IllegalArgumentException("Item of type " + item.getClass().getName() + " cannot be passed to "
						+ method + ", which takes " + method.itemType().getName()));
	}

	/**
	 * Gives an item up: its failed attempts and the limiter's memory are cleared, and it
	 * is kept as a dead letter, logged and published.
	 */
	private ProcessingOutcome giveUp(Object item, GiveUpReason reason, int attempts, Throwable failure) {
		this.failures.clearFailedAttempts(item, true);
		this.givenUp.increment();
		logger.warn("Queue '" + this.queue.name() + "': gave up item '" + item + "' after " + attempts + " attempt(s) ("
				+ reason + "); kept as a dead letter", failure);
		try {
			this.deadLetters.deadLetter(item, describe(reason), attempts, failure);
		}
		catch (RuntimeException ex) {
			logger.error("Queue '" + this.queue.name() + "': could not keep the given-up item '" + item
					+ "' as a dead letter; it is in the log above", ex);
		}
		this.events.publishEvent(new ItemGivenUpEvent(this.queue.name(), item, reason, attempts, failure));
		return new ProcessingOutcome(ProcessingOutcome.Kind.GIVEN_UP, attempts, null, failure, reason);
	}

	private static String describe(GiveUpReason reason) {
		return switch (reason) {
			case MAX_RETRIES -> "gave up after max-retries";
			case NOT_RETRYABLE -> "gave up: failed with an exception marked not retryable";
			case ITEM_TYPE_MISMATCH -> "gave up: not of the type the worker method takes";
		};
	}

	DeadLetters<Object> deadLetters() {
		return this.deadLetters;
	}

	long succeeded() {
		return this.succeeded.sum();
	}

	long retried() {
		return this.retried.sum();
	}

	long givenUp() {
		return this.givenUp.sum();
	}

}
