package io.github.workqueue.redis.internal;

import java.lang.reflect.Proxy;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;

import io.lettuce.core.KeyValue;
import io.lettuce.core.RedisConnectionException;
import io.lettuce.core.api.StatefulConnection;
import io.lettuce.core.api.async.RedisListAsyncCommands;
import io.lettuce.core.protocol.AsyncCommand;
import io.lettuce.core.protocol.Command;
import io.lettuce.core.protocol.CommandType;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A pop that fails is completed on a Lettuce event loop, and its connection is dropped
 * there; Lettuce's close of a cluster connection takes a lock, so the close must run on
 * another thread (BlockHound caught it on an event loop in a Cluster failover). Here the
 * test's own thread stands for the event loop, and the connection records who closed it.
 */
class WakeHintsCloseTest {

	@Test
	void aConnectionWhosePopFailedShouldBeClosedOffTheThreadThatCompletedThePop() throws Exception {
		AtomicReference<Thread> closedOn = new AtomicReference<>();
		CountDownLatch closed = new CountDownLatch(1);
		StatefulConnection<String, String> connection = connectionClosedInto(closedOn, closed);
		AsyncCommand<String, String, KeyValue<String, String>> pop = new AsyncCommand<>(
				new Command<>(CommandType.BLPOP, null));
		Connector connector = new Connector(() -> connection, Duration.ofSeconds(5));
		WakeHints hints = new WakeHints(connector, (on) -> popping(pop), "hints", Duration.ofSeconds(1),
				System::nanoTime);
		CountDownLatch ended = new CountDownLatch(1);
		hints.listen((popped) -> ended.countDown());
		assertThat(ended.await(100, TimeUnit.MILLISECONDS)).as("the pop is pending").isFalse();

		pop.completeExceptionally(new RedisConnectionException("Connection closed"));

		assertThat(ended.await(5, TimeUnit.SECONDS)).as("the pop's end heard").isTrue();
		assertThat(closed.await(5, TimeUnit.SECONDS)).as("the failed connection closed").isTrue();
		assertThat(closedOn.get()).isNotSameAs(Thread.currentThread());
	}

	@SuppressWarnings("unchecked")
	private static StatefulConnection<String, String> connectionClosedInto(AtomicReference<Thread> closedOn,
			CountDownLatch closed) {
		return (StatefulConnection<String, String>) Proxy.newProxyInstance(WakeHintsCloseTest.class.getClassLoader(),
				new Class<?>[] { StatefulConnection.class }, (proxy, method, args) -> {
					if (method.getName().equals("closeAsync")) {
						closedOn.set(Thread.currentThread());
						closed.countDown();
						return CompletableFuture.completedFuture(null);
					}
					if (method.getName().equals("isOpen")) {
						return true;
					}
					throw new UnsupportedOperationException(method.getName());
				});
	}

	@SuppressWarnings("unchecked")
	private static RedisListAsyncCommands<String, String> popping(
			AsyncCommand<String, String, KeyValue<String, String>> pop) {
		return (RedisListAsyncCommands<String, String>) Proxy.newProxyInstance(
				WakeHintsCloseTest.class.getClassLoader(), new Class<?>[] { RedisListAsyncCommands.class },
				(proxy, method, args) -> {
					if (method.getName().equals("blpop")) {
						return pop;
					}
					throw new UnsupportedOperationException(method.getName());
				});
	}

}
