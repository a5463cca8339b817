package io.github.workqueue.test;

import java.time.Duration;

import org.junit.jupiter.api.Test;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;

import io.github.workqueue.autoconfigure.WorkQueueRegistry;
import io.github.workqueue.core.FakeClock;
import io.github.workqueue.core.RateLimitingQueue;
import io.github.workqueue.spring.ProcessingOutcome.Kind;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * On the fake clock, a retry waits until the test moves the clock, and
 * {@link QueueTester#advance} processes exactly what came due.
 */
@SpringBootTest(classes = RetryingWorkerApplication.class)
@FakeQueueClock
class FakeQueueClockTest {

	@Autowired
	QueueTester tester;

	@Autowired
	WorkQueueRegistry queues;

	@Autowired
	FakeClock clock;

	@Test
	void aRetryShouldRunOnlyWhenTheClockReachesItsDelay() {
		RateLimitingQueue<Object> orders = this.queues.queue("orders");
		orders.add("flaky-2");
		this.tester.awaitIdle("orders");
		assertThat(this.tester.outcomes("orders", "flaky-2")).extracting(RecordedOutcome::kind)
			.as("the first failure; its retry waits for the clock")
			.containsExactly(Kind.RETRIED);
		assertThat(orders.waitingLen()).isOne();
		Duration firstDelay = this.tester.outcomes("orders", "flaky-2").get(0).outcome().delay();
		assertThat(firstDelay).isEqualTo(Duration.ofMillis(5));

		this.tester.advance(firstDelay.minusMillis(1));
		assertThat(this.tester.outcomes("orders", "flaky-2")).as("not due yet").hasSize(1);
		this.tester.advance(Duration.ofMillis(1));
		assertThat(this.tester.outcomes("orders", "flaky-2")).extracting(RecordedOutcome::kind)
			.containsExactly(Kind.RETRIED, Kind.RETRIED);
		this.tester.advance(Duration.ofSeconds(1));
		assertThat(this.tester.outcomes("orders", "flaky-2")).extracting(RecordedOutcome::kind)
			.containsExactly(Kind.RETRIED, Kind.RETRIED, Kind.SUCCEEDED);
		assertThat(orders.waitingLen()).isZero();
	}

}
