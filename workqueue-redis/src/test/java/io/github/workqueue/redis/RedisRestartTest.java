package io.github.workqueue.redis;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import io.lettuce.core.RedisClient;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import redis.embedded.RedisServer;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A Redis with an append-only file, fsynced on every write, restarted while instances use
 * it: queued, waiting and in-flight items all survive, a getter blocked across the outage
 * gets its item once Redis is back, and a lease granted before the restart is still
 * honoured after it.
 */
class RedisRestartTest {

	@TempDir
	Path dir;

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
	void aRestartShouldLoseNothingRedisKept() throws Exception {
		int port = TestRedis.freePort();
		Path data = Files.createDirectories(this.dir.resolve("data"));
		this.server = start(port, data);
		this.client = RedisClient.create("redis://127.0.0.1:" + port);
		RedisQueue<String> a = RedisQueue.builder(RedisQueueConnection.of(this.client), "restart")
			.holder("a")
			.build(ItemCodec.strings());
		RedisQueue<String> b = RedisQueue.builder(RedisQueueConnection.of(this.client), "restart")
			.holder("b")
			.build(ItemCodec.strings());
		a.add("in-flight");
		a.add("queued");
		a.addAfter("waiting", Duration.ofHours(1));
		assertThat(a.get(Duration.ofSeconds(5))).contains("in-flight");
		Lease beforeRestart = a.lease("in-flight").orElseThrow();

		this.server.stop();
		CompletableFuture<String> blockedAcrossTheOutage = CompletableFuture.supplyAsync(() -> {
			try {
				return b.get(Duration.ofSeconds(60)).orElse("nothing");
			}
			catch (InterruptedException ex) {
				throw new IllegalStateException(ex);
			}
		});
		Thread.sleep(500); // let the getter meet the outage
		this.server = start(port, data);

		assertThat(blockedAcrossTheOutage.get(60, TimeUnit.SECONDS)).isEqualTo("queued");
		assertThat(b.waitingLen()).isEqualTo(1);
		assertThat(b.stats().inFlight()).as("both leases").isEqualTo(2);
		assertThat(a.done(beforeRestart)).as("the lease held across the restart").isEqualTo(DoneResult.ACCEPTED);
		assertThat(b.lease("queued").orElseThrow().token()).as("a token granted after the restart")
			.isGreaterThan(beforeRestart.token());
		b.done("queued"); // from a thread the item was handed to: the instance's only
							// lease
		assertThat(b.stats()).isEqualTo(new RedisQueueStats(0, 1, 0, 0, 0, 0));
		a.shutDown();
		b.shutDown();
	}

	private static RedisServer start(int port, Path data) {
		return TestRedis.startServer(port, "appendonly yes", "appendfsync always", "dir " + data);
	}

}
