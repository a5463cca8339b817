package io.github.workqueue.spring.internal;

import org.junit.jupiter.api.Test;

import io.github.workqueue.core.DeadLetter;
import io.github.workqueue.core.RateLimitingQueue;
import io.github.workqueue.core.WorkQueue;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The in-process dead letters stay within their bound by dropping the oldest, and count
 * what they drop; a later dead letter of an equal key replaces the earlier one.
 */
class InProcessDeadLettersTest {

	private final RateLimitingQueue<Object> queue = WorkQueue.builder().name("dead").buildRateLimiting();

	private final InProcessDeadLetters letters = new InProcessDeadLetters(this.queue, 2);

	@Test
	void theOldestShouldBeDroppedAndCountedPastTheBound() {
		this.letters.deadLetter("a", "gave up after max-retries", 3, null);
		this.letters.deadLetter("b", "gave up: not retryable", 1, new IllegalStateException("no"));
		this.letters.deadLetter("a", "gave up after max-retries", 5, null);
		assertThat(this.letters.deadLetterCount()).as("a replaced, not added").isEqualTo(2);
		assertThat(this.letters.deadLettersDropped()).isZero();

		this.letters.deadLetter("c", "gave up: not retryable", 1, null);
		assertThat(this.letters.deadLetters()).extracting(DeadLetter::item).containsExactly("c", "a");
		assertThat(this.letters.deadLetterCount()).isEqualTo(2);
		assertThat(this.letters.deadLettersDropped()).as("b, the oldest").isEqualTo(1);

		assertThat(this.letters.requeueDeadLetter("a")).isTrue();
		assertThat(this.queue.len()).isEqualTo(1);
		assertThat(this.letters.deadLetterCount()).isEqualTo(1);
	}

}
