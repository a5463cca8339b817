package io.github.workqueue.redis.failover;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import io.lettuce.core.RedisClient;
import io.lettuce.core.RedisURI;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import io.github.workqueue.redis.ItemCodec;
import io.github.workqueue.redis.RedisQueue;
import io.github.workqueue.redis.RedisQueueConnection;
import io.github.workqueue.redis.TestRedis;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Three instances (a client each, as three applications would have) whose workers keep
 * up, so that they wait in {@code get} on the wake-up pops, through a Redis with an
 * append-only file killed with SIGKILL and restarted on the same port 1.1 s later, three
 * times: after each restart every instance's adds, gets and dones resume within a bound,
 * without restarting the instance, and no instance's sender stalled.
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

	@Test
	void everyInstanceShouldResumeAfterEachKillAndRestart() throws Exception {
		int port = TestRedis.freePort();
		try (RedisProcess redis = RedisProcess.server(port, this.dir, "appendonly yes", "appendfsync always")) {
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
				for (int fault = 1; fault <= 3; fault++) {
					Thread.sleep(1000);
					long killed = System.nanoTime();
					redis.kill();
					Thread.sleep(1100);
					redis.start();
					List<Duration> resumed = traffic.awaitResumed(killed, RESUME_BOUND);
					System.out.println("Redis killed and restarted 1.1 s later (fault " + fault
							+ "): first accepted done per instance after " + millis(resumed));
				}
				for (RedisQueue<String> queue : queues) {
					assertThat(queue.stalledFor()).isEmpty();
				}
			}
			queues.forEach(RedisQueue::shutDown);
		}
	}

	static List<Long> millis(List<Duration> durations) {
		return durations.stream().map(Duration::toMillis).toList();
	}

}
