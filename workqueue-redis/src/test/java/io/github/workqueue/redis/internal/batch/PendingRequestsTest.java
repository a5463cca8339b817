package io.github.workqueue.redis.internal.batch;

import java.util.List;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A shard's backoff after failed parts, on times passed in: it doubles from 50 ms to half
 * a second, holds the shard's dones meanwhile, and ends at the shard's first answer, so
 * that what waited goes as soon as Redis answers again.
 */
class PendingRequestsTest {

	private static final long MILLI = TimeUnit.MILLISECONDS.toNanos(1);

	private final long start = 1_000_000_000L;

	private final PendingRequests pending = new PendingRequests(2, this.start);

	@Test
	void aFailedShardShouldBeAskedAgainAfterABackoffThatDoublesToHalfASecond() {
		BatchRequest.Done done = done(0);
		this.pending.done(done);
		long now = this.start;
		long[] waits = new long[6];
		for (int failure = 0; failure < waits.length; failure++) {
			List<BatchRequest.Done> taken = this.pending.takeDones(0, now);
			assertThat(taken).containsExactly(done);
			this.pending.retryLater(0, taken, now);
			waits[failure] = (this.pending.retryAt(0) - now) / MILLI;
			assertThat(this.pending.takeDones(0, this.pending.retryAt(0) - 1)).as("held by the backoff").isEmpty();
			assertThat(this.pending.sendable(0, this.pending.retryAt(0) - 1)).isFalse();
			now = this.pending.retryAt(0);
		}
		assertThat(waits).containsExactly(50, 100, 200, 400, 500, 500);
		assertThat(this.pending.retryDue(1, this.start)).as("another shard's tries are its own").isTrue();
	}

	@Test
	void theShardsFirstAnswerShouldEndItsBackoffAndStartTheNextFromTheFirst() {
		this.pending.done(done(0));
		long now = this.start;
		for (int failure = 0; failure < 5; failure++) {
			this.pending.retryLater(0, this.pending.takeDones(0, now), now);
			now = this.pending.retryAt(0);
		}
		long failed = now;
		this.pending.retryLater(0, this.pending.takeDones(0, failed), failed);
		long answered = failed + 10 * MILLI;
		assertThat(this.pending.retryDue(0, answered)).isFalse();

		// An add of the shard answered 10 ms later, say: its done goes at once.
		this.pending.answered(0, answered);
		assertThat(this.pending.retryDue(0, answered)).isTrue();
		assertThat(this.pending.sendable(0, answered)).isTrue();
		List<BatchRequest.Done> taken = this.pending.takeDones(0, answered);
		assertThat(taken).hasSize(1);
		this.pending.retryLater(0, taken, answered);
		assertThat(this.pending.retryAt(0) - answered).as("the next backoff, from the first").isEqualTo(50 * MILLI);
	}

	private static BatchRequest.Done done(int shard) {
		return new BatchRequest.Done(shard, "item", 1, Thread.currentThread(), Long.MAX_VALUE, Thread.currentThread(),
				(outcome) -> {
				});
	}

}
