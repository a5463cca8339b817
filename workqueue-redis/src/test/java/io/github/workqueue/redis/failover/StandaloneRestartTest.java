package io.github.workqueue.redis.failover;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import io.lettuce.core.RedisClient;
import io.lettuce.core.RedisURI;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.junit.jupiter.api.io.TempDir;

import io.github.workqueue.redis.ItemCodec;
import io.github.workqueue.redis.RedisQueue;
import io.github.workqueue.redis.RedisQueueConnection;
import io.github.workqueue.redis.TestRedis;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Three instances (a client each, as three applications would have) whose workers keep
 * up, so that they wait in {@code get} on the wake-up pops, through a Redis killed with
 * SIGKILL and restarted on the same port 1.1 s later, twice: after each restart every
 * instance's adds, gets and dones resume within a bound, without restarting the instance,
 * and no instance's sender stalled. Then the producers stop, the workers finish what is
 * queued, and the ledger ({@link Ledger}) is read: with an append-only file, at each
 * {@code appendfsync}, no acknowledged add or done is lost (a killed process's writes are
 * in the kernel's page cache; only a machine's crash loses what was not synced); without
 * persistence, what was lost is reported. Fencing tokens never repeat, even when Redis
 * restarts empty.
 */
class StandaloneRestartTest {

	private static final Duration RESUME_BOUND = Duration.ofSeconds(30);

	@TempDir
	Path dir;

	private final List<RedisClient> clients = new ArrayList<>();

	@AfterEach
	void shutDown() {
		this.clients.forEach(RedisClient::shutdown);
	}

	@ParameterizedTest(name = "{0}")
	@ValueSource(strings = { "appendfsync always", "appendfsync everysec", "appendfsync no", "no persistence" })
	void everyInstanceShouldResumeAfterEachKillAndRestart(String persistence) throws Exception {
		int port = TestRedis.freePort();
		boolean durable = persistence.startsWith("appendfsync");
		String[] settings = durable ? new String[] { "appendonly yes", persistence } : new String[] { "appendonly no" };
		try (RedisProcess redis = RedisProcess.server(port, this.dir, settings)) {
			String name = TestRedis.uniqueName("restart-traffic");
			List<RedisQueue<String>> queues = new ArrayList<>();
			for (int i = 0; i < 3; i++) {
				RedisClient client = RedisClient.create(RedisURI.builder()
					.withHost("127.0.0.1")
					.withPort(port)
					.withTimeout(Duration.ofSeconds(2))
					.build());
				this.clients.add(client);
				queues.add(RedisQueue.builder(RedisQueueConnection.of(client), name)
					.holder("app-" + i)
					.leaseDuration(Duration.ofSeconds(5))
					.build(ItemCodec.strings()));
			}
			try (Traffic traffic = new Traffic(queues, 3, Duration.ofMillis(10))) {
				traffic.awaitResumed(System.nanoTime(), RESUME_BOUND);
				for (int fault = 1; fault <= 2; fault++) {
					Thread.sleep(1000);
					long killed = System.nanoTime();
					redis.kill();
					Thread.sleep(1100);
					redis.start();
					List<Duration> resumed = traffic.awaitResumed(killed, RESUME_BOUND);
					System.out.println("Redis (" + persistence + ") killed and restarted 1.1 s later (fault " + fault
							+ "): first accepted done per instance after " + millis(resumed));
				}
				traffic.stopProducing();
				await().atMost(Duration.ofSeconds(30))
					.pollInterval(Duration.ofMillis(100))
					.until(() -> queues.get(0).len() == 0 && queues.get(0).inFlight().isEmpty());
				Ledger ledger = Ledger.of(traffic);
				System.out.println("Redis (" + persistence + ") killed twice: " + ledger);
				ledger.assertTokensNeverRepeated();
				if (durable) {
					ledger.assertNothingAcknowledgedLost();
				}
				for (RedisQueue<String> queue : queues) {
					assertThat(queue.stalledFor()).isEmpty();
				}
			}
			finally {
				// Also when an assertion failed: queues left running would keep
				// renewing on clients shut down after the test, and log into the
				// next tests of this JVM.
				queues.forEach(RedisQueue::shutDown);
			}
		}
	}

	static List<Long> millis(List<Duration> durations) {
		return durations.stream().map(Duration::toMillis).toList();
	}

}
