package io.github.workqueue.redis.internal.batch;

import java.util.List;

import io.lettuce.core.ScriptOutputType;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import io.github.workqueue.redis.TestRedis;

import io.github.workqueue.redis.internal.link.RedisLink;
import io.github.workqueue.redis.internal.link.Script;

import io.github.workqueue.redis.internal.shared.QueueKeys;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A done reaches Redis more than once when its reply is lost: the library's retries, and
 * Lettuce's replay of unanswered commands after a reconnect. Each repeat gets the first
 * attempt's answer, and a rejected done is counted once, as an accepted one is accepted
 * again: {@code batch.lua} called as the batcher calls it, at times the test gives.
 */
class RejectedDoneCountTest {

	/**
	 * Holder, lease (1 s), most expiries (none), ended lease memory (60 s), the sender.
	 */
	private static final String[] FIXED_ARGS = { "test-holder", "1000000", "-1", "60000000", "test-sender" };

	/**
	 * The number of the last part run: each run gets the next, as a sender's parts do.
	 */
	private long lastPartNumber;

	private static final long START = 1_000_000_000_000L;

	private final RedisLink link = RedisLink.standalone(TestRedis.client());

	private final QueueKeys queueKeys = new QueueKeys(TestRedis.uniqueName("rejected"));

	private final String[] keys = this.queueKeys.scriptKeys();

	@AfterEach
	void close() {
		this.link.close();
	}

	@Test
	void aRejectedDoneShouldBeCountedOnceHoweverOftenItReachesRedis() {
		long first = take("a", START);
		for (int attempt = 0; attempt < 3; attempt++) {
			assertThat(done("a", first, START + 2_000_000 + attempt)).as("the lease had expired").isFalse();
		}
		assertThat(rejected()).isEqualTo(1);
		long second = take("a", START + 3_000_000);
		assertThat(done("a", second, START + 5_000_000)).isFalse();
		assertThat(done("a", second, START + 5_000_001)).isFalse();
		assertThat(done("a", first, START + 5_000_002)).as("the first lease's done, replayed later").isFalse();
		assertThat(rejected()).as("one per rejected lease").isEqualTo(2);
	}

	@Test
	void aRepeatedAcceptedDoneShouldBeAcceptedAndNeverCounted() {
		long token = take("b", START);
		assertThat(done("b", token, START + 100)).isTrue();
		assertThat(done("b", token, START + 200)).as("a retry whose first reply was lost").isTrue();
		assertThat(rejected()).isZero();
	}

	/** Adds the item and takes it: the lease's token. */
	private long take(String item, long now) {
		List<Object> reply = run(new ShardBatch(0, List.of(new BatchRequest.Add(0, item)), List.of(), 1), now);
		return (Long) reply.get(3);
	}

	/** Whether the done of that lease was accepted. */
	private boolean done(String item, long token, long now) {
		BatchRequest.Done done = new BatchRequest.Done(0, item, token, Thread.currentThread(), System.nanoTime(),
				Thread.currentThread(), (outcome) -> {
				});
		return (Long) run(new ShardBatch(0, List.of(), List.of(done), 0), now).get(1) == 1;
	}

	private long rejected() {
		String count = this.link.hashGet(this.queueKeys.counters(), "rejected");
		return (count != null) ? Long.parseLong(count) : 0;
	}

	private List<Object> run(ShardBatch batch, long now) {
		return this.link.run(Script.BATCH, ScriptOutputType.MULTI, this.keys,
				batch.args(Long.toString(now), FIXED_ARGS, ++this.lastPartNumber));
	}

}
