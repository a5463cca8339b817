package io.github.workqueue.redis.failover;

import java.time.Duration;

import io.github.workqueue.redis.ItemCodec;
import io.github.workqueue.redis.RedisQueue;
import io.github.workqueue.redis.TestRedis;
import io.github.workqueue.redis.UnconfirmedAddException;
import io.lettuce.core.RedisCommandExecutionException;
import io.lettuce.core.RedisURI;
import io.lettuce.core.api.StatefulRedisConnection;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.awaitility.Awaitility.await;

/**
 * An add that got no answer says that it may have been applied, and one that Redis
 * refused does not.
 */
class UnconfirmedAddTest {

	private final String name = TestRedis.uniqueName("unconfirmed-add");

	private final StatefulRedisConnection<String, String> direct = TestRedis.client().connect();

	private FaultProxy proxy;

	private RedisQueue<String> queue;

	@BeforeEach
	void start() throws Exception {
		this.proxy = new FaultProxy(RedisURI.create(TestRedis.uri()));
		this.queue = RedisQueue.builder(this.proxy.connection(Duration.ofMillis(500)), this.name)
			.build(ItemCodec.strings());
		this.queue.add("warm-up");
	}

	@AfterEach
	void stop() {
		this.queue.shutDown();
		this.proxy.close();
		this.direct.close();
	}

	@Test
	void anAddWhoseReplyIsHeldShouldThrowThatItMayHaveBeenAppliedAndBeApplied() {
		this.proxy.holdReplies(true);

		assertThatExceptionOfType(UnconfirmedAddException.class).isThrownBy(() -> this.queue.add("a"))
			.withMessageContaining("'" + this.name + "'")
			.withMessageContaining("the add of a")
			.withMessageContaining("may have been applied")
			.satisfies((ex) -> assertThat(ex.item()).isEqualTo("a"));
		assertThatExceptionOfType(UnconfirmedAddException.class)
			.isThrownBy(() -> this.queue.addAfter("b", Duration.ofMinutes(1)))
			.withMessageContaining("the add of b");
		this.proxy.heal();

		await().atMost(Duration.ofSeconds(10)).until(() -> this.queue.len() == 2 && this.queue.waitingLen() == 1);
	}

	@Test
	void anAddThatRedisRefusedShouldNotSayItMayHaveBeenApplied() {
		this.direct.sync().del("{workqueue:" + this.name + "}:dirty-since");
		this.direct.sync().set("{workqueue:" + this.name + "}:dirty-since", "not a hash");

		assertThatExceptionOfType(RedisCommandExecutionException.class).isThrownBy(() -> this.queue.add("a"))
			.isNotInstanceOf(UnconfirmedAddException.class);
	}

}
