package io.github.workqueue.redis.internal.batch;

import java.util.List;

import io.lettuce.core.RedisCommandExecutionException;
import io.lettuce.core.ScriptOutputType;
import io.lettuce.core.api.StatefulRedisConnection;
import io.lettuce.core.api.sync.RedisCommands;
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
 * {@code batch.lua} runs each part of a sender at most once: a part whose number is not
 * above the last that the sender's parts reached on the shard is refused and changes
 * nothing, as Lettuce's replay of an unanswered part after a reconnect needs
 * ({@code failover.ReplayedBatchTest} shows that replay end to end).
 */
class RepeatedPartTest {

	private final RedisLink link = RedisLink.standalone(TestRedis.client());

	private final String tag = TestRedis.uniqueName("repeated-part");

	private final String[] keys = new QueueKeys(this.tag).scriptKeys();

	private final StatefulRedisConnection<String, String> connection = TestRedis.client().connect();

	private final RedisCommands<String, String> direct = this.connection.sync();

	@AfterEach
	void close() {
		this.link.close();
		this.connection.close();
	}

	@Test
	void aPartRunAgainShouldBeRefusedAndLeaveTheKeyItAddedAsItWas() {
		ShardBatch addA = new ShardBatch(0, List.of(new BatchRequest.Add(0, "a")), List.of(), 0);
		run(addA, "sender-1", 1);
		assertThat(run(new ShardBatch(0, List.of(), List.of(), 1), "sender-1", 2)).contains("a");

		assertThatExceptionOfType(RedisCommandExecutionException.class).isThrownBy(() -> run(addA, "sender-1", 1))
			.satisfies((ex) -> assertThat(CallNumbers.isRepeatRefusal(ex)).isTrue())
			.withMessageContaining("the call 1 of sender-1 comes after 2");
		assertThat(this.direct.hexists("{" + this.tag + "}:dirty-since", "a")).as("a taken, and not dirty again")
			.isFalse();
		assertThat(this.direct.llen("{" + this.tag + "}:queue")).isZero();
	}

	@Test
	void anOlderPartOfASenderShouldBeRefusedAndAnotherSendersPartsRun() {
		run(new ShardBatch(0, List.of(new BatchRequest.Add(0, "a")), List.of(), 0), "sender-1", 5);

		assertThatExceptionOfType(RedisCommandExecutionException.class)
			.isThrownBy(
					() -> run(new ShardBatch(0, List.of(new BatchRequest.Add(0, "b")), List.of(), 0), "sender-1", 4))
			.satisfies((ex) -> assertThat(CallNumbers.isRepeatRefusal(ex)).isTrue());
		run(new ShardBatch(0, List.of(new BatchRequest.Add(0, "c")), List.of(), 0), "sender-2", 1);
		run(new ShardBatch(0, List.of(new BatchRequest.Add(0, "d")), List.of(), 0), "sender-1", 6);

		assertThat(this.direct.lrange("{" + this.tag + "}:queue", 0, -1)).containsExactlyInAnyOrder("a", "c", "d");
		assertThat(this.direct.get("{" + this.tag + "}:sent-call:sender-1")).isEqualTo("6");
		assertThat(this.direct.pttl("{" + this.tag + "}:sent-call:sender-1")).as("kept as an ended lease is")
			.isBetween(1L, 60_000L);
	}

	@Test
	void aFailureOtherThanTheRefusalShouldNotReadAsOne() {
		assertThat(CallNumbers.isRepeatRefusal(new RedisCommandExecutionException("ERR Function not found"))).isFalse();
	}

	/**
	 * Runs the part with Redis's time, as the given sender's part of the given number.
	 */
	private List<Object> run(ShardBatch part, String sender, long number) {
		String[] fixed = { "test-holder", "30000000", "-1", "60000000", sender };
		return this.link.run(Script.BATCH, ScriptOutputType.MULTI, this.keys, part.args("", fixed, number));
	}

}
