package io.github.workqueue.redis.internal;

import io.lettuce.core.RedisException;
import io.lettuce.core.ScriptOutputType;
import io.lettuce.core.api.StatefulRedisConnection;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import io.github.workqueue.redis.TestRedis;

import io.github.workqueue.redis.internal.link.CallNumbers;
import io.github.workqueue.redis.internal.link.RedisLink;
import io.github.workqueue.redis.internal.link.Script;

import io.github.workqueue.redis.internal.shared.QueueKeys;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

/**
 * The scripts are given the queue's key alone and name the other keys after it
 * ({@code begin} in {@code state.lua}, which keeps the names between calls): two queues
 * called in turn each see their own keys, and a key that is not a queue's is refused,
 * naming it, rather than read as some other queue's.
 */
class ScriptKeysTest {

	private final RedisLink link = RedisLink.standalone(TestRedis.client());

	private final StatefulRedisConnection<String, String> direct = TestRedis.client().connect();

	private final QueueKeys first = new QueueKeys(TestRedis.uniqueName("keys-first"));

	private final QueueKeys second = new QueueKeys(TestRedis.uniqueName("keys-second"));

	@AfterEach
	void close() {
		this.link.close();
		this.direct.close();
	}

	/** The numbers of the adds here, each run at most once. */
	private final CallNumbers numbers = new CallNumbers();

	@Test
	void queuesCalledInTurnShouldEachSeeTheirOwnKeys() {
		addAfterAMinute(this.first, "x");
		addAfterAMinute(this.second, "y");
		addAfterAMinute(this.first, "z");
		assertThat(this.direct.sync().zrange(this.first.waiting(), 0, -1)).containsExactlyInAnyOrder("x", "z");
		assertThat(this.direct.sync().zrange(this.second.waiting(), 0, -1)).containsExactly("y");
		assertThat(this.direct.sync().hgetall(this.second.counters())).as("the second queue's own counters")
			.containsEntry("order", "1");
	}

	@Test
	void aKeyThatIsNotAQueuesShouldBeRefusedNamingIt() {
		assertThatExceptionOfType(RedisException.class).isThrownBy(
				() -> this.link.run(Script.LEN, ScriptOutputType.INTEGER, new String[] { "{other}:dirty-since" }, ""))
			.withMessageContaining("must be a queue key")
			.withMessageContaining("{other}:dirty-since");
	}

	private void addAfterAMinute(QueueKeys keys, String item) {
		this.link.runOnce(this.numbers, Script.ADD_AFTER, ScriptOutputType.INTEGER, keys.scriptKeys(), "", item,
				"60000000", "");
	}

}
