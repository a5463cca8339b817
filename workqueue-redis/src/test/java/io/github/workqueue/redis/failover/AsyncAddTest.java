package io.github.workqueue.redis.failover;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;

import io.github.workqueue.core.AddOptions;
import io.github.workqueue.redis.ItemCodec;
import io.github.workqueue.redis.RedisQueue;
import io.github.workqueue.redis.RedisQueueStats;
import io.github.workqueue.redis.RedisQueueConnection;
import io.github.workqueue.redis.TestRedis;
import io.github.workqueue.redis.UnconfirmedAddException;
import io.lettuce.core.RedisCommandExecutionException;
import io.lettuce.core.RedisURI;
import io.lettuce.core.api.StatefulRedisConnection;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

/**
 * {@code addAsync} and its forms: the acknowledgement {@code add} gives, in a stage
 * completed off the sender thread, with the unanswered adds bounded.
 */
class AsyncAddTest {

	private final String name = TestRedis.uniqueName("async-add");

	private final StatefulRedisConnection<String, String> direct = TestRedis.client().connect();

	private FaultProxy proxy;

	private RedisQueue<String> queue;

	@BeforeEach
	void start() throws Exception {
		this.proxy = new FaultProxy(RedisURI.create(TestRedis.uri()));
		// A command timeout that a starved machine does not reach, and a bound of two
		// in-flight adds; the test of a timed-out add makes its own queue.
		this.queue = connected(RedisQueue.builder(this.proxy.connection(Duration.ofSeconds(10)), this.name)
			.maxAsyncAdds(2)
			.build(ItemCodec.strings()));
	}

	/**
	 * Makes a queue's connection before a test holds replies, which would hold its
	 * handshake: one item added, taken and done. A queue that fails to is shut down.
	 */
	private static RedisQueue<String> connected(RedisQueue<String> queue) throws InterruptedException {
		try {
			queue.add("warm-up");
			queue.done(queue.get().orElseThrow());
			return queue;
		}
		catch (RuntimeException | InterruptedException ex) {
			queue.shutDown();
			throw ex;
		}
	}

	@AfterEach
	void stop() {
		this.queue.shutDown();
		this.proxy.close();
		this.direct.close();
	}

	@Test
	void addsFromOneThreadShouldBeAppliedInTheOrderMadeAndJoinThoseQueued() throws Exception {
		List<CompletableFuture<Void>> stages = new ArrayList<>();
		for (int i = 0; i < 200; i++) {
			stages.add(this.queue.addAsync("item-" + (i % 150)).toCompletableFuture());
		}
		CompletableFuture.allOf(stages.toArray(CompletableFuture[]::new)).join();

		assertThat(this.queue.len()).isEqualTo(150);
		for (int i = 0; i < 150; i++) {
			String item = this.queue.get().orElseThrow();
			assertThat(item).isEqualTo("item-" + i);
			this.queue.done(item);
		}
	}

	@Test
	void aSecondPartShouldLeaveWhileTheFirstIsOnItsWayAndRunAfterIt() throws Exception {
		RedisQueue<String> ordered = connected(
				RedisQueue.builder(this.proxy.connection(Duration.ofSeconds(30)), this.name)
					.build(ItemCodec.strings()));
		try {
			this.proxy.holdReplies(true);
			long before = batchCalls();
			CompletableFuture<Void> first = ordered.addAsync("first").toCompletableFuture();
			await().atMost(Duration.ofSeconds(20)).until(() -> batchCalls() == before + 1);
			CompletableFuture<Void> second = ordered.addAsync("second").toCompletableFuture();
			// The first part's reply is held, so it is still on its way: the second
			// reaches Redis all the same.
			await().atMost(Duration.ofSeconds(20)).until(() -> batchCalls() == before + 2);
			assertThat(first).isNotDone();
			this.proxy.heal();
			CompletableFuture.allOf(first, second).get(20, TimeUnit.SECONDS);
			assertThat(ordered.get().orElseThrow()).as("Redis ran the parts in the order sent").isEqualTo("first");
			assertThat(ordered.get().orElseThrow()).isEqualTo("second");
		}
		finally {
			this.proxy.heal();
			ordered.shutDown();
		}
	}

	/** How many batch calls (functions) Redis ran, read past the proxy. */
	private long batchCalls() {
		for (String line : this.direct.sync().info("commandstats").split("\\r?\\n")) {
			if (line.startsWith("cmdstat_fcall:")) {
				return Long.parseLong(line.substring(line.indexOf("calls=") + 6, line.indexOf(',')));
			}
		}
		return 0;
	}

	@Test
	void theStageShouldCompleteOffTheCallersThreadOnceRedisAnswered() {
		AtomicReference<Thread> completer = new AtomicReference<>();
		this.proxy.holdReplies(true);
		CompletionStage<Void> stage = this.queue.addAsync("a")
			.whenComplete((ok, failure) -> completer.set(Thread.currentThread()));
		assertThat(stage.toCompletableFuture()).isNotDone();

		this.proxy.heal();

		await().atMost(Duration.ofSeconds(10)).until(() -> completer.get() != null);
		assertThat(completer.get()).isNotSameAs(Thread.currentThread());
		assertThat(completer.get().getName()).as("a helper, not the sender or an event loop")
			.startsWith("workqueue-redis-helper");
	}

	@Test
	void aHeldReplyShouldFailTheStageAsUnconfirmedAndTheAddBeApplied() {
		RedisQueue<String> impatient = RedisQueue.builder(this.proxy.connection(Duration.ofMillis(500)), this.name)
			.build(ItemCodec.strings());
		try {
			// Connected first (a held reply would hold the handshake); retried, since a
			// starved machine may take longer than the timeout to answer.
			await().atMost(Duration.ofSeconds(20)).ignoreExceptions().until(() -> impatient.len() == 0);
			this.proxy.holdReplies(true);
			CompletionStage<Void> stage = impatient.addAsync("a");

			assertThatThrownBy(() -> stage.toCompletableFuture().join()).isInstanceOf(CompletionException.class)
				.cause()
				.isInstanceOf(UnconfirmedAddException.class)
				.hasMessageContaining("the add of a");
			this.proxy.heal();
			await().atMost(Duration.ofSeconds(10)).until(() -> this.queue.len() == 1);
		}
		finally {
			this.proxy.heal();
			impatient.shutDown();
		}
	}

	@Test
	void anAddThatRedisRefusedShouldFailTheStageWithoutSayingItMayHaveBeenApplied() {
		this.direct.sync().set("{workqueue:" + this.name + "}:dirty-since", "not a hash");

		assertThatThrownBy(() -> this.queue.addAsync("a").toCompletableFuture().join())
			.isInstanceOf(CompletionException.class)
			.cause()
			.isInstanceOf(RedisCommandExecutionException.class)
			.isNotInstanceOf(UnconfirmedAddException.class);
	}

	@Test
	void aFullBoundShouldMakeTheNextCallerWaitUntilAnAddIsAnswered() throws Exception {
		// The shared queue's bound of two, and its command timeout (10 s), far beyond
		// the wait observed below: a starved test thread must not see the held adds
		// time out, which also frees the bound, before it has watched the third
		// caller wait.
		RedisQueue<String> bounded = this.queue;
		try {
			this.proxy.holdReplies(true);
			bounded.addAsync("a");
			bounded.addAsync("b");
			CompletableFuture<CompletionStage<Void>> third = CompletableFuture.supplyAsync(() -> bounded.addAsync("c"));

			await().during(Duration.ofMillis(300)).atMost(Duration.ofSeconds(20)).until(() -> !third.isDone());
			this.proxy.heal();

			third.get(20, TimeUnit.SECONDS)
				.toCompletableFuture()
				.exceptionally((failure) -> null)
				.get(20, TimeUnit.SECONDS);
			await().atMost(Duration.ofSeconds(20)).until(() -> bounded.len() == 3);
		}
		finally {
			this.proxy.heal();
		}
	}

	@Test
	void delayedAndRateLimitedFormsShouldApplyAsTheirSynchronousOnes() {
		this.queue.addAfterAsync("later", Duration.ofMinutes(1)).toCompletableFuture().join();
		this.queue.addAsync("prioritised", AddOptions.priority(5)).toCompletableFuture().join();
		this.queue.addAsync("delayed", AddOptions.delay(Duration.ofMinutes(1))).toCompletableFuture().join();
		Duration limited = this.queue.addRateLimitedAsync("limited").toCompletableFuture().join();

		assertThat(limited.isNegative()).isFalse();
		// Read together: "limited" waits a few milliseconds, and could be counted as
		// waiting by one read and as queued by the next.
		RedisQueueStats stats = this.queue.stats();
		assertThat(stats.waiting() + stats.queued()).isEqualTo(4);
		assertThat(stats.waiting()).isGreaterThanOrEqualTo(2);
	}

	@Test
	void anAddAfterShutdownShouldBeDroppedAndItsStageCompleteNormally() {
		this.queue.shutDown();

		assertThat(this.queue.addAsync("late").toCompletableFuture().join()).isNull();
		assertThat(this.queue.len()).isZero();
	}

	@Test
	void argumentsShouldBeCheckedOnTheCallersThread() {
		assertThatThrownBy(() -> this.queue.addAsync(null)).isInstanceOf(NullPointerException.class);
		assertThatThrownBy(() -> this.queue.addAfterAsync("a", null)).isInstanceOf(NullPointerException.class);
	}

}
