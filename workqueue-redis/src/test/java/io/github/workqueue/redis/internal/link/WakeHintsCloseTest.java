package io.github.workqueue.redis.internal.link;

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
 * there; Lettuce's close of a cluster connection takes a lock (BlockHound caught it on an
 * event loop in a Cluster failover), so the connection is closed by the next listen or
 * close instead. Here the test's own thread stands for the event loop, and the connection
 * records who closed it.
 */
class WakeHintsCloseTest {

	private final AtomicReference<Thread> closedOn = new AtomicReference<>();

	private final CountDownLatch closed = new CountDownLatch(1);

	private final AsyncCommand<String, String, KeyValue<String, String>> pop = new AsyncCommand<>(
			new Command<>(CommandType.BLPOP, null));

	private final WakeHints hints = new WakeHints(
			new Connector(() -> connectionClosedInto(this.closedOn, this.closed), Duration.ofSeconds(5)),
			(on) -> popping(this.pop), "hints", Duration.ofSeconds(1), System::nanoTime);

	@Test
	void aConnectionWhosePopFailedShouldBeClosedByTheNextListenNotByTheEventLoop() throws Exception {
		failThePopHere();

		CompletableFuture<Thread> listener = CompletableFuture.supplyAsync(() -> {
			this.hints.listen((popped) -> {
			});
			return Thread.currentThread();
		});

		assertThat(this.closed.await(5, TimeUnit.SECONDS)).as("the failed connection closed").isTrue();
		assertThat(this.closedOn.get()).isSameAs(listener.get(5, TimeUnit.SECONDS));
		this.hints.close();
	}

	@Test
	void aConnectionWhosePopFailedShouldBeClosedByClose() throws Exception {
		failThePopHere();

		CompletableFuture<Thread> closer = CompletableFuture.supplyAsync(() -> {
			this.hints.close();
			return Thread.currentThread();
		});

		assertThat(this.closed.await(5, TimeUnit.SECONDS)).as("the failed connection closed").isTrue();
		assertThat(this.closedOn.get()).isSameAs(closer.get(5, TimeUnit.SECONDS));
	}

	/**
	 * Listens, then fails the pending pop on this thread, as an event loop does when the
	 * connection goes away: the connection is not closed here.
	 */
	private void failThePopHere() throws InterruptedException {
		CountDownLatch ended = new CountDownLatch(1);
		this.hints.listen((popped) -> ended.countDown());
		assertThat(ended.await(100, TimeUnit.MILLISECONDS)).as("the pop is pending").isFalse();

		this.pop.completeExceptionally(new RedisConnectionException("Connection closed"));

		assertThat(ended.await(5, TimeUnit.SECONDS)).as("the pop's end heard").isTrue();
		assertThat(this.closedOn.get()).as("closed on the thread that failed the pop").isNull();
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
