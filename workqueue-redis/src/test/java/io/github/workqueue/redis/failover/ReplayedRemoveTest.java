package io.github.workqueue.redis.failover;

import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;

import io.github.workqueue.redis.ItemCodec;
import io.github.workqueue.redis.RedisQueue;
import io.github.workqueue.redis.RedisQueueConnection;
import io.github.workqueue.redis.TestRedis;
import io.lettuce.core.RedisException;
import io.lettuce.core.RedisURI;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

/**
 * A remove that Redis ran before the connection was lost is not run again when Lettuce
 * sends it again after the reconnect: run again, it would take out the add another
 * instance made meanwhile, and that add would be lost.
 */
class ReplayedRemoveTest {

	private final String name = TestRedis.uniqueName("replayed-remove");

	private FaultProxy proxy;

	private RedisQueue<String> removing;

	private RedisQueue<String> adding;

	@BeforeEach
	void start() throws Exception {
		this.proxy = new FaultProxy(RedisURI.create(TestRedis.uri()));
		// A command timeout long enough that the remove still waits for its reply when
		// Lettuce reconnects and sends it again.
		this.removing = RedisQueue.builder(this.proxy.connection(Duration.ofSeconds(20)), this.name)
			.build(ItemCodec.strings());
		this.adding = RedisQueue.builder(RedisQueueConnection.of(TestRedis.client()), this.name)
			.build(ItemCodec.strings());
		// The first connection through the proxy may take a while on a busy machine.
		await().atMost(Duration.ofSeconds(30)).ignoreExceptions().until(() -> {
			this.removing.add("warm-up");
			return true;
		});
		this.adding.done(this.adding.get().orElseThrow());
		assertThat(this.removing.remove("warm-up")).isFalse();
	}

	@AfterEach
	void stop() {
		this.removing.shutDown();
		this.adding.shutDown();
		this.proxy.close();
	}

	@Test
	void aRemoveThatRedisRanBeforeTheConnectionWasLostShouldNotTakeOutAnAddMadeSince() {
		this.adding.add("k");
		this.proxy.holdReplies(true);
		CompletableFuture<Boolean> remove = CompletableFuture.supplyAsync(() -> this.removing.remove("k"));
		await().atMost(Duration.ofSeconds(10)).until(() -> this.adding.len() == 0);
		this.adding.add("k");

		this.proxy.reset();
		this.proxy.heal();

		await().atMost(Duration.ofSeconds(20)).until(remove::isDone);
		assertThat(this.adding.len()).as("the add made after the remove ran").isEqualTo(1);
		assertThatThrownBy(remove::join).isInstanceOf(CompletionException.class)
			.cause()
			.isInstanceOf(RedisException.class)
			.hasMessageContaining("may have been applied");
	}

}
