package io.github.workqueue.test;

import java.time.Duration;

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import org.springframework.beans.factory.annotation.Autowired;

import io.github.workqueue.autoconfigure.WorkQueueRegistry;
import io.github.workqueue.core.RateLimitingQueue;
import io.github.workqueue.spring.GiveUpReason;
import io.github.workqueue.spring.ProcessingOutcome.Kind;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

/**
 * The test a user writes of a worker that succeeds, retries and gives up, on the system
 * clock: each subclass runs it on a backend, with one annotation of difference.
 */
abstract class RetryingWorkerTests {

	@Autowired
	QueueTester tester;

	@Autowired
	WorkQueueRegistry queues;

	@Autowired
	RetryingWorkerApplication.Orders worker;

	@BeforeEach
	void forgetEarlierOutcomes() {
		this.tester.clearOutcomes();
	}

	@Test
	void aWorkerThatSucceedsRetriesAndGivesUpShouldHaveEachOutcomeRecorded() {
		RateLimitingQueue<Object> orders = this.queues.queue("orders");
		orders.add("order-1");
		orders.add("flaky-1");
		orders.add("poison-1");

		this.tester.awaitIdle("orders");

		assertThat(this.tester.outcomes("orders", "order-1")).extracting(RecordedOutcome::kind)
			.containsExactly(Kind.SUCCEEDED);
		assertThat(this.tester.outcomes("orders", "flaky-1")).extracting(RecordedOutcome::kind)
			.containsExactly(Kind.RETRIED, Kind.RETRIED, Kind.SUCCEEDED);
		assertThat(this.tester.outcomes("orders", "flaky-1").get(0).outcome().delay()).isPositive();
		assertThat(this.tester.outcomes("orders", "poison-1")).extracting(RecordedOutcome::kind)
			.containsExactly(Kind.RETRIED, Kind.RETRIED, Kind.GIVEN_UP);
		assertThat(this.tester.outcomes("orders", "poison-1").get(2).outcome()).satisfies((given) -> {
			assertThat(given.giveUpReason()).isEqualTo(GiveUpReason.MAX_RETRIES);
			assertThat(given.attempt()).isEqualTo(3);
			assertThat(given.failure()).hasMessage("the downstream rejects poison-1");
		});
	}

	@Test
	void aQueueThatIsNotIdleInTimeShouldFailSayingWhatIsPending() {
		RateLimitingQueue<Object> orders = this.queues.queue("orders");
		orders.add("slow-1");
		try {
			assertThatExceptionOfType(AssertionError.class)
				.isThrownBy(() -> this.tester.awaitIdle("orders", Duration.ofMillis(300)))
				.withMessageContaining("Queue 'orders' was not idle within PT0.3S")
				.withMessageContaining("1 processing [slow-1]");
		}
		finally {
			this.worker.releaseSlow.countDown();
		}
		this.tester.awaitIdle("orders");
		assertThat(this.tester.outcomes("orders", "slow-1")).extracting(RecordedOutcome::kind)
			.containsExactly(Kind.SUCCEEDED);
	}

}
