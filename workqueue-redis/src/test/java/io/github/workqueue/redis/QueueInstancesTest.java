package io.github.workqueue.redis;

import java.time.Duration;
import java.time.Instant;

import io.lettuce.core.RedisClient;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.tuple;
import static org.awaitility.Awaitility.await;

/**
 * Every instance of a queue lists itself through a heartbeat a second: with what it holds
 * and waits for; an instance shut down leaves the list at once, and one that stopped (its
 * connection closed, as when killed) stays with a last-seen time that ages.
 */
class QueueInstancesTest {

	private final String name = TestRedis.uniqueName("instances");

	private RedisQueue<String> instance(RedisClient client, String holder) {
		return RedisQueue.builder(RedisQueueConnection.of(client), this.name).holder(holder).build(ItemCodec.strings());
	}

	@Test
	void instancesShouldListThemselvesAndLeaveAtShutdown() throws Exception {
		RedisQueue<String> one = instance(TestRedis.client(), "one");
		RedisClient stoppingClient = RedisClient.create(TestRedis.uri());
		RedisQueueConnection stoppingConnection = RedisQueueConnection.of(stoppingClient);
		RedisQueue<String> stopping = RedisQueue.builder(stoppingConnection, this.name)
			.holder("stopping")
			.build(ItemCodec.strings());
		RedisQueue<String> leaving = instance(TestRedis.client(), "leaving");
		try {
			one.add("a");
			assertThat(one.get(Duration.ofSeconds(5))).contains("a");
			await().atMost(Duration.ofSeconds(10))
				.untilAsserted(() -> assertThat(one.instances()).extracting(QueueInstance::holder)
					.containsExactly("leaving", "one", "stopping"));
			await().atMost(Duration.ofSeconds(10))
				.untilAsserted(
						() -> assertThat(one.instances()).filteredOn((instance) -> instance.holder().equals("one"))
							.singleElement()
							.satisfies((instance) -> assertThat(instance.inFlight()).isEqualTo(1)));

			leaving.shutDown();
			await().atMost(Duration.ofSeconds(5))
				.untilAsserted(
						() -> assertThat(one.instances()).extracting(QueueInstance::holder).doesNotContain("leaving"));

			// No more heartbeats, and no goodbye: as from a killed instance.
			stoppingConnection.close();
			Instant closed = Instant.now();
			Thread.sleep(2500);
			assertThat(one.instances()).filteredOn((instance) -> instance.holder().equals("stopping"))
				.singleElement()
				.satisfies((instance) -> assertThat(instance.lastSeen()).isBefore(closed.plusMillis(100)));
			assertThat(one.instances()).filteredOn((instance) -> instance.holder().equals("one"))
				.singleElement()
				.satisfies((instance) -> assertThat(instance.lastSeen()).isAfter(closed.plusMillis(500)));
			one.done("a");
		}
		finally {
			one.shutDown();
			stopping.shutDown();
			stoppingClient.shutdown();
		}
	}

	@Test
	void anInstanceShouldSayWhetherItsWorkersArePaused() {
		RedisQueue<String> one = instance(TestRedis.client(), "one");
		RedisQueue<String> other = instance(TestRedis.client(), "other");
		try {
			await().atMost(Duration.ofSeconds(10))
				.untilAsserted(
						() -> assertThat(other.instances()).extracting(QueueInstance::holder, QueueInstance::paused)
							.containsExactly(tuple("one", false), tuple("other", false)));
			one.workersPaused(true);
			await().atMost(Duration.ofSeconds(10))
				.untilAsserted(() -> assertThat(other.instances()).filteredOn(QueueInstance::paused)
					.extracting(QueueInstance::holder)
					.containsExactly("one"));
			one.workersPaused(false);
			await().atMost(Duration.ofSeconds(10))
				.untilAsserted(() -> assertThat(other.instances()).noneMatch(QueueInstance::paused));
		}
		finally {
			one.shutDown();
			other.shutDown();
		}
	}

}
