package io.github.workqueue.redis.internal.link;

import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import io.lettuce.core.RedisConnectionException;
import io.lettuce.core.api.StatefulConnection;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A closed {@link Connector} starts no connect, and its close waits for the connects
 * under way (up to its bound), so that none ends after the application shut the client
 * down.
 */
class ConnectorCloseTest {

	@Test
	void closeShouldWaitForAConnectUnderWayAndStartNoneAfter() throws Exception {
		CountDownLatch connecting = new CountDownLatch(1);
		CountDownLatch release = new CountDownLatch(1);
		AtomicInteger connects = new AtomicInteger();
		Connector connector = new Connector(() -> {
			connects.incrementAndGet();
			connecting.countDown();
			try {
				release.await();
			}
			catch (InterruptedException ex) {
				Thread.currentThread().interrupt();
			}
			throw new RedisConnectionException("refused");
		}, Duration.ofSeconds(5));
		CompletableFuture<StatefulConnection<String, String>> underWay = connector.connect();
		assertThat(connecting.await(5, TimeUnit.SECONDS)).isTrue();

		CompletableFuture<Void> closed = CompletableFuture.runAsync(() -> connector.close(Duration.ofSeconds(30)));
		Thread.sleep(100); // the close has had time to return, if it did not wait
		assertThat(closed).as("waiting for the connect under way").isNotDone();
		release.countDown();
		closed.get(5, TimeUnit.SECONDS);
		assertThat(underWay).isCompletedExceptionally();

		assertThat(connector.connect()).as("after close").isCompletedExceptionally();
		assertThat(connects).as("no connect started after close").hasValue(1);
	}

	@Test
	void closeShouldGiveUpWaitingAtItsBound() {
		CountDownLatch never = new CountDownLatch(1);
		Connector connector = new Connector(() -> {
			try {
				never.await();
			}
			catch (InterruptedException ex) {
				Thread.currentThread().interrupt();
			}
			throw new RedisConnectionException("never");
		}, Duration.ofSeconds(5));
		connector.connect();
		long start = System.nanoTime();
		connector.close(Duration.ofMillis(200));
		assertThat(Duration.ofNanos(System.nanoTime() - start)).isLessThan(Duration.ofSeconds(5));
		never.countDown();
	}

}
