package io.github.workqueue.redis.internal.batch;

import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * The waits of a {@link Taker}: a try wakes a take that has no time left (it waits for
 * one ask, within its bound), and does not end a take that still has time; a claim serves
 * it once, and a claimed take never waits again.
 */
class TakerTest {

	private static final long MINUTE = TimeUnit.MINUTES.toNanos(1);

	@Test
	void aTakeWithNoTimeLeftShouldEndAtTheFirstTryNotAtItsBound() {
		CompletableFuture<Taker> taking = new CompletableFuture<>();
		CompletableFuture<Void> waited = CompletableFuture.runAsync(() -> {
			Taker taker = new Taker();
			taking.complete(taker);
			try {
				taker.await(0, MINUTE);
			}
			catch (InterruptedException ex) {
				throw new IllegalStateException(ex);
			}
		});
		Taker taker = taking.join();
		await().during(Duration.ofMillis(200)).atMost(Duration.ofSeconds(5)).until(() -> !waited.isDone());
		taker.tried();
		assertThat(waited).as("woken by the try, a minute before its bound").succeedsWithin(Duration.ofSeconds(10));
		assertThat(taker.isWaiting()).as("not served: the caller cancels it").isTrue();
	}

	@Test
	void aTryShouldNotEndATakeThatHasTimeLeft() {
		CompletableFuture<Taker> taking = new CompletableFuture<>();
		CompletableFuture<Void> waited = CompletableFuture.runAsync(() -> {
			Taker taker = new Taker();
			taking.complete(taker);
			try {
				taker.await(MINUTE, MINUTE);
			}
			catch (InterruptedException ex) {
				throw new IllegalStateException(ex);
			}
		});
		Taker taker = taking.join();
		taker.tried();
		await().during(Duration.ofMillis(300)).atMost(Duration.ofSeconds(5)).until(() -> !waited.isDone());
		Grant grant = new Grant(0, "a", 1, 0, 0, 0, System.nanoTime(), null);
		assertThat(taker.claim(grant)).isTrue();
		taker.wake();
		assertThat(waited).as("served").succeedsWithin(Duration.ofSeconds(10));
		assertThat(taker.grant).isSameAs(grant);
		assertThat(taker.claim(new Grant(0, "b", 2, 0, 0, 0, System.nanoTime(), null))).as("served once").isFalse();
		assertThat(taker.grant).isSameAs(grant);
	}

	@Test
	void aTakeClaimedAsItsTimeoutEndsShouldEndWithTheGrant() throws Exception {
		Taker taker = new Taker();
		Grant grant = new Grant(0, "a", 1, 0, 0, 0, System.nanoTime(), null);
		assertThat(taker.claim(grant)).isTrue();
		// Never woken: the claim alone ends the wait, as a timeout that ends it would.
		taker.await(MINUTE, MINUTE);
		assertThat(taker.isWaiting()).isFalse();
		assertThat(taker.grant).isSameAs(grant);
	}

	@Test
	void aTakeWhoseTimeRunsOutAfterATryShouldEndWithoutWaitingForAnother() throws Exception {
		Taker taker = new Taker();
		taker.tried();
		long start = System.nanoTime();
		taker.await(TimeUnit.MILLISECONDS.toNanos(50), MINUTE);
		assertThat(System.nanoTime() - start).as("ended at its timeout, not its bound")
			.isLessThan(TimeUnit.SECONDS.toNanos(30));
		assertThat(taker.isWaiting()).isTrue();
	}

}
