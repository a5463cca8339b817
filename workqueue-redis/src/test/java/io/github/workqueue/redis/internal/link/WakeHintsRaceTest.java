package io.github.workqueue.redis.internal.link;

import java.lang.reflect.Proxy;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Function;

import io.lettuce.core.KeyValue;
import io.lettuce.core.RedisClient;
import io.lettuce.core.RedisConnectionException;
import io.lettuce.core.api.StatefulConnection;
import io.lettuce.core.api.StatefulRedisConnection;
import io.lettuce.core.api.async.RedisListAsyncCommands;
import io.lettuce.core.codec.StringCodec;
import io.lettuce.core.protocol.AsyncCommand;
import io.lettuce.core.protocol.Command;
import io.lettuce.core.protocol.CommandType;
import io.lettuce.core.resource.ClientResources;
import io.lettuce.core.resource.DefaultClientResources;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import io.github.workqueue.redis.TestRedis;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * The race that hung instances through a Redis restart, forced step by step: a pending
 * pop fails on Lettuce's event loop (its connection went away) while the batch sender is
 * opening the next connection, which needs that same event loop. The client has one I/O
 * thread, so every connection shares it; time is a counter the test moves.
 */
class WakeHintsRaceTest {

	private static final Duration BLOCK = Duration.ofMillis(100);

	private final ClientResources resources = DefaultClientResources.builder().ioThreadPoolSize(1).build();

	private final RedisClient client = RedisClient.create(this.resources, TestRedis.uri());

	@AfterEach
	void shutDown() {
		this.client.shutdown(Duration.ZERO, Duration.ofSeconds(2));
		this.resources.shutdown(0, 2, TimeUnit.SECONDS);
	}

	@Test
	void aPopFailingOnTheEventLoopWhileTheSenderConnectsShouldHangNeither() throws Exception {
		AtomicLong nanos = new AtomicLong();
		StatefulRedisConnection<String, String> helper = this.client.connect(StringCodec.UTF8);
		AsyncCommand<String, String, KeyValue<String, String>> firstPop = new AsyncCommand<>(
				new Command<>(CommandType.BLPOP, null));
		CountDownLatch failedOnTheEventLoop = new CountDownLatch(1);
		AtomicInteger connects = new AtomicInteger();
		Connector connector = new Connector(() -> {
			if (connects.incrementAndGet() == 2) {
				// The first pop fails on the event loop now, as when its connection
				// dropped, and the connect below needs that same event loop.
				helper.async().ping().thenRun(() -> {
					firstPop.completeExceptionally(new RedisConnectionException("Connection closed"));
					failedOnTheEventLoop.countDown();
				});
				awaitQuietly(failedOnTheEventLoop, Duration.ofSeconds(2));
			}
			return this.client.connect(StringCodec.UTF8);
		}, Duration.ofSeconds(20));
		AtomicInteger pops = new AtomicInteger();
		Function<StatefulConnection<String, String>, RedisListAsyncCommands<String, String>> lists = (connection) -> {
			if (pops.incrementAndGet() == 1) {
				return firstPopOnly(firstPop);
			}
			return ((StatefulRedisConnection<String, String>) connection).async();
		};
		WakeHints hints = new WakeHints(connector, lists, TestRedis.uniqueName("race"), BLOCK, nanos::get);
		CountDownLatch secondPopEnded = new CountDownLatch(1);
		hints.listen((popped) -> {
		});
		CompletableFuture<Void> listening = CompletableFuture.runAsync(() -> {
			// The first pop was sent and has not been answered for longer than its block
			// and grace: the listener starts over on a new connection.
			await().atMost(Duration.ofSeconds(10)).until(() -> pops.get() == 1);
			nanos.addAndGet(BLOCK.toNanos() + Duration.ofSeconds(3).toNanos());
			hints.listen((popped) -> secondPopEnded.countDown());
		});

		assertThat(listening).as("the sender's listen").succeedsWithin(Duration.ofSeconds(10));
		assertThat(failedOnTheEventLoop.await(10, TimeUnit.SECONDS))
			.as("the first pop's failure, handled on the event loop")
			.isTrue();
		assertThat(secondPopEnded.await(10, TimeUnit.SECONDS))
			.as("the pop sent on the new connection, answered after its block")
			.isTrue();
		assertThat(connects).hasValue(2);
		hints.close();
		helper.close();
	}

	@SuppressWarnings("unchecked")
	private static RedisListAsyncCommands<String, String> firstPopOnly(
			AsyncCommand<String, String, KeyValue<String, String>> pop) {
		return (RedisListAsyncCommands<String, String>) Proxy.newProxyInstance(WakeHintsRaceTest.class.getClassLoader(),
				new Class<?>[] { RedisListAsyncCommands.class }, (proxy, method, args) -> {
					if (method.getName().equals("blpop")) {
						return pop;
					}
					throw new UnsupportedOperationException(method.getName());
				});
	}

	private static void awaitQuietly(CountDownLatch latch, Duration timeout) {
		try {
			latch.await(timeout.toNanos(), TimeUnit.NANOSECONDS);
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
		}
	}

}
