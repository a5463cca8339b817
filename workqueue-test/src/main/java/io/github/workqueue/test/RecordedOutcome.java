package io.github.workqueue.test;

import io.github.workqueue.spring.ProcessingOutcome;

/**
 * One processing of an item by a {@code @QueueWorker} method, as {@link QueueTester}
 * recorded it.
 *
 * <p>
 * <b>Concurrency.</b> Immutable.
 *
 * @param queue the queue's name
 * @param item the item
 * @param outcome what became of it
 */
public record RecordedOutcome(String queue, Object item, ProcessingOutcome outcome) {

	/**
	 * What became of the item, for short assertions.
	 * @return the outcome's kind
	 */
	public ProcessingOutcome.Kind kind() {
		return this.outcome.kind();
	}

}
