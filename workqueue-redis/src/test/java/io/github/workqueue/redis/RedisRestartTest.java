package io.github.workqueue.redis;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import io.github.workqueue.core.AddOptions;
import io.github.workqueue.core.FairnessKeyExtractor;
import io.github.workqueue.core.RateLimitingQueue;
import io.github.workqueue.core.WorkQueue;
import io.lettuce.core.RedisClient;
import io.lettuce.core.RedisException;
import io.lettuce.core.RedisURI;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import redis.embedded.RedisServer;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

/**
 * A Redis with an append-only file, fsynced on every write, restarted while instances use
 * it: queued, waiting and in-flight items all survive, a getter blocked across the outage
 * gets its item once Redis is back, and a lease granted before the restart is still
 * honoured after it; so does the order of a queue with priorities and fairness.
 */
class RedisRestartTest {

	private static final FairnessKeyExtractor<String> TENANT = (item) -> List.of(item.substring(0, item.indexOf('/')));

	@TempDir
	Path dir;

	private int port;

	private Path data;

	private RedisServer server;

	private RedisClient client;

	@BeforeEach
	void startRedis() throws IOException {
		this.port = TestRedis.freePort();
		this.data = Files.createDirectories(this.dir.resolve("data"));
		this.server = start(this.port, this.data);
		this.client = RedisClient.create("redis://127.0.0.1:" + this.port);
	}

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
		this.server = start(this.port, this.data);

		assertThat(blockedAcrossTheOutage.get(60, TimeUnit.SECONDS)).isEqualTo("queued");
		assertThat(b.waitingLen()).isEqualTo(1);
		assertThat(b.stats().inFlight()).as("both leases").isEqualTo(2);
		assertThat(a.done(beforeRestart)).as("the lease held across the restart").isEqualTo(DoneResult.ACCEPTED);
		assertThat(b.lease("queued").orElseThrow().token()).as("a token granted after the restart")
			.isGreaterThan(beforeRestart.token());
		b.done("queued"); // from a thread the item was handed to: the instance's only
							// lease
		assertThat(b.stats()).isEqualTo(new RedisQueueStats(0, 1, 0, 0, 0, 0, 0));
		a.shutDown();
		b.shutDown();
	}

	@Test
	void theOrderOfPrioritiesAndFairnessShouldSurviveARestart() throws Exception {
		RedisQueue<String> before = RedisQueue.builder(RedisQueueConnection.of(this.client), "restart-fair")
			.holder("a")
			.fairness(TENANT)
			.build(ItemCodec.strings());
		RateLimitingQueue<String> memory = WorkQueue.builder()
			.name("restart-fair")
			.fairness(TENANT)
			.buildRateLimiting();
		addEach(before);
		addEach(memory);
		before.shutDown();

		this.server.stop();
		this.server = start(this.port, this.data);

		RedisQueue<String> after = RedisQueue.builder(RedisQueueConnection.of(this.client), "restart-fair")
			.holder("b")
			.fairness(TENANT)
			.build(ItemCodec.strings());
		List<String> expected = drain(memory);
		assertThat(expected).as("the order the contract gives, from the memory queue")
			.containsExactly("c/1", "a/3", "b/2", "a/1", "b/1", "a/2", "d/1");
		assertThat(drain(after)).as("the order after the restart").isEqualTo(expected);
		after.shutDown();
	}

	/**
	 * After an outage long enough for Lettuce's reconnect backoff to reach many seconds
	 * (15 s: its tries come 8 and 16 s apart by then), the queue is served again within a
	 * few seconds of Redis answering, not at Lettuce's next try (about 17 s later).
	 */
	@Test
	void aLongOutageShouldEndForTheQueueSoonAfterRedisAnswersAgain() throws Exception {
		RedisClient quick = RedisClient.create(RedisURI.builder()
			.withHost("127.0.0.1")
			.withPort(this.port)
			.withTimeout(Duration.ofSeconds(1))
			.build());
		RedisQueue<String> queue = RedisQueue.builder(RedisQueueConnection.of(quick), "restart-reconnect")
			.holder("a")
			.build(ItemCodec.strings());
		queue.add("before");
		this.server.stop();
		long outageEnds = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
		while (System.nanoTime() - outageEnds < 0) {
			// A producer that keeps trying, as the application's would.
			assertThatExceptionOfType(RedisException.class).isThrownBy(() -> queue.add("during"));
			Thread.sleep(200);
		}
		this.server = start(this.port, this.data);
		long restarted = System.nanoTime();
		long served = -1;
		while (System.nanoTime() - restarted < TimeUnit.SECONDS.toNanos(30)) {
			try {
				queue.add("after");
				served = System.nanoTime();
				break;
			}
			catch (RedisException ex) {
				Thread.sleep(50);
			}
		}
		assertThat(served).as("an add succeeded within 30 s of the restart").isPositive();
		Duration recovered = Duration.ofNanos(served - restarted);
		System.out.println("Redis down 20 s, then an add succeeded " + recovered.toMillis() + " ms after the restart");
		assertThat(recovered).as("served again well before Lettuce's next reconnect try")
			.isLessThan(Duration.ofSeconds(8));
		List<String> queued = new ArrayList<>();
		for (String item; (item = queue.get(Duration.ZERO).orElse(null)) != null;) {
			queued.add(item);
			queue.done(item);
		}
		assertThat(queued).contains("before", "after");
		queue.shutDown();
		quick.shutdown();
	}

	/**
	 * A worker blocked in {@code get} across an outage long enough for every backoff to
	 * reach its longest (6 s) is served within about a second of Redis answering (a
	 * shard's retries are half a second apart at most by then, and the first answer ends
	 * the wait for the next), and nothing is logged above WARNING (a lease renewal
	 * cancelled by the lost connection is part of the outage, not an error).
	 */
	@Test
	void aWorkerBlockedAcrossAnOutageShouldBeServedSoonAfterRedisAnswersWithoutAnError() throws Exception {
		java.util.logging.Logger logger = java.util.logging.Logger.getLogger(RedisQueue.class.getName());
		List<java.util.logging.LogRecord> severe = new java.util.concurrent.CopyOnWriteArrayList<>();
		java.util.logging.Handler handler = new java.util.logging.Handler() {
			@Override
			public void publish(java.util.logging.LogRecord record) {
				if (record.getLevel().intValue() > java.util.logging.Level.WARNING.intValue()) {
					severe.add(record);
				}
			}

			@Override
			public void flush() {
			}

			@Override
			public void close() {
			}
		};
		logger.addHandler(handler);
		RedisClient quick = RedisClient.create(RedisURI.builder()
			.withHost("127.0.0.1")
			.withPort(this.port)
			.withTimeout(Duration.ofSeconds(2))
			.build());
		RedisQueue<String> queue = RedisQueue.builder(RedisQueueConnection.of(quick), "restart-served")
			.holder("a")
			.leaseDuration(Duration.ofSeconds(15))
			.build(ItemCodec.strings());
		try {
			queue.add("held");
			String held = queue.get(Duration.ofSeconds(5)).orElseThrow();
			CompletableFuture<Long> served = CompletableFuture.supplyAsync(() -> {
				try {
					queue.get(Duration.ofSeconds(60)).orElseThrow();
					return System.nanoTime();
				}
				catch (InterruptedException ex) {
					throw new IllegalStateException(ex);
				}
			});
			this.server.stop();
			long stopped = System.nanoTime();
			while (queue.unreachableSince().isEmpty() && System.nanoTime() - stopped < TimeUnit.SECONDS.toNanos(20)) {
				Thread.sleep(20);
			}
			assertThat(queue.unreachableSince()).as("the outage known").isPresent();
			Thread.sleep(6000);
			this.server = start(this.port, this.data);
			long restarted = System.nanoTime();
			this.client.connect().sync().lpush("ignored", "x"); // Redis answers now
			RedisQueue<String> producer = RedisQueue.builder(RedisQueueConnection.of(this.client), "restart-served")
				.holder("b")
				.build(ItemCodec.strings());
			producer.add("after");
			long outageKnownEnded = -1;
			while (System.nanoTime() - restarted < TimeUnit.SECONDS.toNanos(30)) {
				if (queue.unreachableSince().isEmpty()) {
					outageKnownEnded = System.nanoTime();
					break;
				}
				Thread.sleep(10);
			}
			Duration servedAfter = Duration.ofNanos(served.get(30, TimeUnit.SECONDS) - restarted);
			Duration knownAfter = Duration.ofNanos(outageKnownEnded - restarted);
			System.out.println(
					"Redis down 6 s after the outage was known: the blocked worker was served " + servedAfter.toMillis()
							+ " ms and the outage known ended " + knownAfter.toMillis() + " ms after the restart");
			assertThat(outageKnownEnded).as("the outage ended for the queue").isPositive();
			// The longest backoff (half a second) and room for a busy machine; well below
			// Lettuce's own reconnect backoff (up to 30 s).
			assertThat(servedAfter).as("the worker served").isLessThan(Duration.ofSeconds(2));
			assertThat(knownAfter).as("the outage known ended").isLessThan(Duration.ofSeconds(2));
			assertThat(severe).extracting(java.util.logging.LogRecord::getMessage)
				.as("nothing logged above WARNING")
				.isEmpty();
			queue.done(held);
			producer.shutDown();
		}
		finally {
			logger.removeHandler(handler);
			queue.shutDown();
			quick.shutdown();
		}
	}

	/** Adds at three priorities over four tenants, one add raising a queued item. */
	private static void addEach(RateLimitingQueue<String> queue) {
		queue.add("a/1");
		queue.add("a/2");
		queue.add("b/1");
		queue.add("a/3");
		queue.add("c/1", AddOptions.priority(5));
		queue.add("d/1", AddOptions.priority(-1));
		queue.add("b/2", AddOptions.priority(2));
		queue.add("a/3", AddOptions.priority(5));
	}

	private static List<String> drain(RateLimitingQueue<String> queue) throws InterruptedException {
		List<String> taken = new ArrayList<>();
		for (int i = 0; i < 7; i++) {
			String item = queue.get(Duration.ofSeconds(10)).orElseThrow();
			taken.add(item);
			queue.done(item);
		}
		return taken;
	}

	private static RedisServer start(int port, Path data) {
		return TestRedis.startServer(port, "appendonly yes", "appendfsync always", "dir " + data);
	}

}
