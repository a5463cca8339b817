package io.github.workqueue.redis.failover;

import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;

import io.github.workqueue.redis.ItemCodec;
import io.github.workqueue.redis.RedisQueue;
import io.github.workqueue.redis.RedisQueueConnection;
import io.github.workqueue.redis.TestRedis;
import io.github.workqueue.redis.UnconfirmedAddException;
import io.lettuce.core.RedisURI;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

/**
 * Lettuce sends again, once it reconnected, the commands that a lost connection left
 * unanswered, and Redis may have run them before the connection went: a batch, or an add
 * of its own script, that Redis already ran is not run a second time. Here the add of a
 * key reached Redis, another instance took the key, and the connection was lost before
 * the add's reply came; had the replayed add run again, the key would be dirty and
 * processed a second time after its done, for a single add.
 */
class ReplayedBatchTest {

	private final String name = TestRedis.uniqueName("replayed-batch");

	private FaultProxy proxy;

	private RedisQueue<String> adding;

	private RedisQueue<String> taking;

	@BeforeEach
	void start() throws Exception {
		this.proxy = new FaultProxy(RedisURI.create(TestRedis.uri()));
		// A command timeout long enough that the add still waits for its reply when
		// Lettuce reconnects and sends it again.
		this.adding = RedisQueue.builder(this.proxy.connection(Duration.ofSeconds(20)), this.name)
			.build(ItemCodec.strings());
		this.taking = RedisQueue.builder(RedisQueueConnection.of(TestRedis.client()), this.name)
			.build(ItemCodec.strings());
		this.adding.add("warm-up");
		this.taking.done(this.taking.get().orElseThrow());
	}

	@AfterEach
	void stop() {
		this.adding.shutDown();
		this.taking.shutDown();
		this.proxy.close();
	}

	@Test
	void anAddThatRedisRanBeforeTheConnectionWasLostShouldNotRunAgainWhenLettuceSendsItAgain() throws Exception {
		this.proxy.holdReplies(true);
		CompletableFuture<Void> add = this.adding.addAsync("a").toCompletableFuture();
		await().atMost(Duration.ofSeconds(10)).until(() -> this.taking.len() == 1);
		assertThat(this.taking.get()).contains("a");

		this.proxy.reset();
		this.proxy.heal();

		await().atMost(Duration.ofSeconds(20)).until(add::isDone);
		this.taking.done("a");
		assertThat(this.taking.len()).as("a key added once and processed once").isZero();
		assertThatThrownBy(add::join).isInstanceOf(CompletionException.class)
			.cause()
			.isInstanceOf(UnconfirmedAddException.class)
			.hasMessageContaining("may have been applied");
	}

	@Test
	void aDelayedAddThatRedisRanBeforeTheConnectionWasLostShouldNotRunAgainWhenLettuceSendsItAgain() throws Exception {
		this.proxy.holdReplies(true);
		CompletableFuture<Void> add = this.adding.addAfterAsync("b", Duration.ofMillis(1)).toCompletableFuture();
		assertThat(this.taking.get()).contains("b");

		this.proxy.reset();
		this.proxy.heal();

		await().atMost(Duration.ofSeconds(20)).until(add::isDone);
		this.taking.done("b");
		assertThat(this.taking.len() + this.taking.waitingLen()).as("a key added once and processed once").isZero();
		assertThatThrownBy(add::join).isInstanceOf(CompletionException.class)
			.cause()
			.isInstanceOf(UnconfirmedAddException.class)
			.hasMessageContaining("may have been applied");
	}

}
