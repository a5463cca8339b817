package io.github.workqueue.autoconfigure.redis;

import java.net.InetSocketAddress;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Collectors;

import io.lettuce.core.RedisClient;
import io.lettuce.core.RedisURI;
import io.lettuce.core.sentinel.api.StatefulRedisSentinelConnection;
import org.awaitility.core.ConditionTimeoutException;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.data.redis.autoconfigure.DataRedisAutoConfiguration;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;

import io.github.workqueue.autoconfigure.WorkQueueAutoConfiguration;
import io.github.workqueue.autoconfigure.WorkQueueRedisAutoConfiguration;
import io.github.workqueue.redis.RedisQueue;
import io.github.workqueue.redis.TestRedis;
import io.github.workqueue.redis.failover.Ledger;
import io.github.workqueue.redis.failover.RedisProcess;
import io.github.workqueue.redis.failover.Traffic;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Two Boot applications configured only by Spring Boot's Sentinel properties, their
 * workers keeping up, through Sentinel failovers: a master, a replica and three sentinels
 * ({@code down-after-milliseconds 1000}) on loopback, the master killed with SIGKILL
 * mid-work, the replica promoted; the old master restarted, it rejoins as a replica, and
 * the new master is killed in turn. After each failover both applications' adds, gets and
 * dones resume within a bound, without a restart (with {@code replicas-ack: 1}, once the
 * old master is back as a replica: until then no write can be acknowledged). Then the
 * producers stop, the workers finish what is queued, and the ledger of every acknowledged
 * add and accepted done ({@link Ledger}) is checked: fencing tokens never repeat, nothing
 * is parked; with {@code replicas-ack: 1} no acknowledged add or done is lost; without
 * it, what was lost is reported.
 */
class SentinelFailoverTest {

	private static final String MASTER = "mymaster";

	/**
	 * Failovers with replicas-ack, whose claim (nothing acknowledged is lost) the test
	 * asserts; without it, where the test only reports the loss, two.
	 */
	private static final int FAILOVERS_ACKNOWLEDGED = 3;

	@TempDir
	Path dir;

	@ParameterizedTest(name = "replicas-ack {0}")
	@ValueSource(ints = { 1, 0 })
	void bothApplicationsShouldResumeAfterEachFailoverAndKeepTheirGuarantees(int replicasAck) throws Exception {
		List<RedisProcess> servers = new ArrayList<>();
		List<RedisProcess> sentinels = new ArrayList<>();
		try {
			int first = TestRedis.freePort();
			servers.add(RedisProcess.server(first, this.dir.resolve("a"), "appendonly yes"));
			servers.add(RedisProcess.server(TestRedis.freePort(), this.dir.resolve("b"), "appendonly yes",
					"replicaof 127.0.0.1 " + first));
			for (int i = 0; i < 3; i++) {
				sentinels.add(RedisProcess.sentinel(TestRedis.freePort(), this.dir.resolve("sentinel-" + i),
						"sentinel monitor " + MASTER + " 127.0.0.1 " + first + " 2",
						"sentinel down-after-milliseconds " + MASTER + " 1000",
						"sentinel failover-timeout " + MASTER + " 5000"));
			}
			awaitSentinelsSee(sentinels, first, 1);
			String queue = TestRedis.uniqueName("sentinel");
			ApplicationContextRunner runner = new ApplicationContextRunner()
				.withConfiguration(AutoConfigurations.of(DataRedisAutoConfiguration.class,
						WorkQueueRedisAutoConfiguration.class, WorkQueueAutoConfiguration.class))
				.withPropertyValues("spring.data.redis.sentinel.master=" + MASTER,
						"spring.data.redis.sentinel.nodes=" + sentinels.stream()
							.map((sentinel) -> "127.0.0.1:" + sentinel.port())
							.collect(Collectors.joining(",")),
						"spring.data.redis.timeout=2s", "workqueue.queues." + queue + ".backend=redis",
						"workqueue.queues." + queue + ".lease-duration=5s",
						"workqueue.queues." + queue + ".replicas-ack=" + replicasAck,
						"workqueue.queues." + queue + ".replicas-ack-timeout=500ms");
			runner.run((one) -> runner.run((two) -> {
				List<RedisQueue<String>> queues = List.of(redisQueue(one.getBean(queue)),
						redisQueue(two.getBean(queue)));
				try (Traffic traffic = new Traffic(queues, 6, Duration.ofMillis(4), 2,
						(instance, producer, n) -> "i" + instance + "-p" + producer + "-" + n)) {
					traffic.awaitResumed(System.nanoTime(), Duration.ofSeconds(30));
					int master = 0;
					int failovers = (replicasAck > 0) ? FAILOVERS_ACKNOWLEDGED : 2;
					for (int failover = 1; failover <= failovers; failover++) {
						Thread.sleep(1000);
						long killed = System.nanoTime();
						servers.get(master).kill();
						int promoted = 1 - master;
						awaitSentinelsSee(sentinels, servers.get(promoted).port(), 0);
						// The old master comes back and is made a replica of the new one:
						// with replicas-ack, writes are acknowledged again only then.
						servers.get(master).start();
						awaitSentinelsSee(sentinels, servers.get(promoted).port(), 1);
						List<Duration> resumed = traffic.awaitResumed(killed, Duration.ofSeconds(60));
						System.out.println("Sentinel failover " + failover + " (replicas-ack " + replicasAck
								+ "): first accepted done per application "
								+ resumed.stream().map(Duration::toMillis).toList()
								+ " ms after the master was killed");
						master = promoted;
					}
					traffic.stopProducing();
					// Leases lost with a master expire within a lease duration; what is
					// still unfinished after that and a margin was lost.
					try {
						await().atMost(Duration.ofSeconds(20))
							.pollInterval(Duration.ofMillis(200))
							.until(() -> Ledger.of(traffic).allFinished() && queues.get(0).len() == 0
									&& queues.get(0).inFlight().isEmpty());
					}
					catch (ConditionTimeoutException ex) {
						// Reported below.
					}
					Ledger ledger = Ledger.of(traffic);
					long unreplicated = queues.stream().mapToLong(RedisQueue::unreplicatedWrites).sum();
					System.out.println("Sentinel, replicas-ack " + replicasAck + ", " + failovers + " failovers: "
							+ ledger + "; writes that fell short of replicas-ack " + unreplicated + "; lost adds "
							+ ledger.lostAdds() + ", lost dones " + ledger.lostDones());
					ledger.assertTokensNeverRepeated();
					assertThat(queues.get(0).stats().parked()).as("items parked").isZero();
					if (replicasAck > 0) {
						ledger.assertNothingAcknowledgedLost();
					}
					for (RedisQueue<String> redis : queues) {
						assertThat(redis.stalledFor()).isEmpty();
					}
				}
			}));
		}
		finally {
			sentinels.forEach(RedisProcess::close);
			servers.forEach(RedisProcess::close);
		}
	}

	@SuppressWarnings("unchecked")
	private static RedisQueue<String> redisQueue(Object bean) {
		return (RedisQueue<String>) bean;
	}

	/**
	 * Waits until every sentinel names the master on that port and, if asked, knows a
	 * replica of it that is up.
	 */
	private static void awaitSentinelsSee(List<RedisProcess> sentinels, int masterPort, int replicas) {
		await().atMost(Duration.ofSeconds(60)).pollInterval(Duration.ofMillis(100)).until(() -> {
			for (RedisProcess sentinel : sentinels) {
				RedisClient client = RedisClient.create(RedisURI.create("127.0.0.1", sentinel.port()));
				try (StatefulRedisSentinelConnection<String, String> connection = client.connectSentinel()) {
					var address = connection.sync().getMasterAddrByName(MASTER);
					if (!(address instanceof InetSocketAddress inet) || inet.getPort() != masterPort) {
						return false;
					}
					long up = connection.sync()
						.replicas(MASTER)
						.stream()
						.filter((replica) -> !replica.getOrDefault("flags", "").contains("down"))
						.count();
					if (up < replicas) {
						return false;
					}
				}
				catch (RuntimeException ex) {
					return false;
				}
				finally {
					client.shutdown(Duration.ZERO, Duration.ofSeconds(1));
				}
			}
			return true;
		});
	}

}
