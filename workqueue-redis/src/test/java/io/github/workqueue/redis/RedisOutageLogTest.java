package io.github.workqueue.redis;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.logging.Level;

import io.lettuce.core.RedisClient;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import redis.embedded.RedisServer;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * An outage of Redis is logged once when it starts and once when it ends, however many
 * getters retry through it, so that a down Redis does not flood the log; meanwhile the
 * queue says since when it lasts, without asking Redis.
 */
class RedisOutageLogTest {

	@RegisterExtension
	final QueueLogRecords logs = new QueueLogRecords();

	private RedisServer server;

	private RedisClient client;

	@AfterEach
	void stop() {
		if (this.client != null) {
			this.client.shutdown();
		}
		if (this.server != null) {
			this.server.stop();
		}
	}

	@Test
	void anOutageShouldBeLoggedOnceWhenItStartsAndOnceWhenItEndsAndSayLastingSinceWhen() throws Exception {
		int port = TestRedis.freePort();
		Instant before = Instant.now();
		this.client = RedisClient.create("redis://127.0.0.1:" + port);
		RedisQueue<String> queue = RedisQueue.builder(RedisQueueConnection.of(this.client), "outage")
			.build(ItemCodec.strings());
		List<CompletableFuture<Boolean>> getters = new ArrayList<>();
		for (int i = 0; i < 4; i++) {
			getters.add(CompletableFuture.supplyAsync(() -> getWithin(queue, Duration.ofMillis(1500))));
		}
		for (CompletableFuture<Boolean> getter : getters) {
			assertThat(getter.get(30, TimeUnit.SECONDS)).as("nothing to get while Redis is down").isFalse();
		}
		assertThat(this.logs.messages(Level.WARNING)).as("four getters retrying for 1.5 s each")
			.singleElement()
			.asString()
			.contains("workqueue 'outage': Redis cannot be reached");
		assertThat(this.logs.messages(Level.INFO)).isEmpty();
		assertThat(queue.unreachableSince()).as("lasting since the first failure")
			.hasValueSatisfying((since) -> assertThat(since).isBetween(before, Instant.now()));

		this.server = TestRedis.startServer(port);
		queue.add("after");
		assertThat(queue.get(Duration.ofSeconds(30))).contains("after");
		queue.done("after");
		assertThat(this.logs.messages(Level.INFO)).singleElement()
			.asString()
			.contains("workqueue 'outage': Redis can be reached again");
		assertThat(queue.unreachableSince()).isEmpty();
		assertThat(this.logs.messages(Level.WARNING)).hasSize(1);
		queue.shutDown();
	}

	@Test
	void closingTheConnectionWhileLeasesAreHeldShouldStopTheirRenewalWithOneWarning() throws Exception {
		this.client = RedisClient.create(TestRedis.uri());
		RedisQueueConnection connection = RedisQueueConnection.of(this.client);
		RedisQueue<String> queue = RedisQueue.builder(connection, TestRedis.uniqueName("closed"))
			.leaseDuration(Duration.ofMillis(300))
			.build(ItemCodec.strings());
		queue.add("held");
		assertThat(queue.get(Duration.ofSeconds(5))).contains("held");

		connection.close();
		await().atMost(Duration.ofSeconds(5)).until(() -> !this.logs.messages(Level.WARNING).isEmpty());
		// Renewals would come every 100 ms: none fails, and the warning is not repeated.
		Thread.sleep(500);
		assertThat(this.logs.messages(Level.WARNING)).singleElement()
			.asString()
			.contains("the Redis connection was closed while 1 leases were held");
		assertThat(this.logs.messages(Level.SEVERE)).isEmpty();
	}

	private static boolean getWithin(RedisQueue<String> queue, Duration timeout) {
		try {
			return queue.get(timeout).isPresent();
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			return false;
		}
	}

}
