package io.github.workqueue.redis.failover;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import io.github.workqueue.redis.DoneResult;
import io.github.workqueue.redis.ItemCodec;
import io.github.workqueue.redis.Lease;
import io.github.workqueue.redis.RedisQueue;
import io.github.workqueue.redis.RedisQueueConnection;
import io.github.workqueue.redis.TestRedis;
import io.github.workqueue.redis.UnreplicatedWriteException;
import io.lettuce.core.RedisClient;
import io.lettuce.core.RedisURI;
import io.lettuce.core.api.StatefulRedisConnection;
import io.lettuce.core.cluster.RedisClusterClient;
import io.lettuce.core.cluster.SlotHash;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.awaitility.Awaitility.await;

/**
 * {@code replicas-ack}: with its replica answering, a master's adds and dones return once
 * the replica has them; with the replica frozen (SIGSTOP), each add and done fails with
 * {@link UnreplicatedWriteException} after the ack timeout, naming the queue and the
 * setting, and is counted, while the master keeps the write. On a cluster the wait goes
 * to the master that took the write: freezing another master's replica changes nothing.
 */
class ReplicasAckTest {

	private static final Duration ACK_TIMEOUT = Duration.ofMillis(300);

	@TempDir
	Path dir;

	private final List<AutoCloseable> closing = new ArrayList<>();

	@AfterEach
	void close() throws Exception {
		for (int i = this.closing.size() - 1; i >= 0; i--) {
			this.closing.get(i).close();
		}
	}

	@Test
	void writesShouldReturnOnceTheReplicaHasThemAndFailCountedWhileItIsFrozen() throws Exception {
		RedisProcess master = RedisProcess.server(TestRedis.freePort(), this.dir.resolve("master"));
		this.closing.add(master);
		RedisProcess replica = RedisProcess.server(TestRedis.freePort(), this.dir.resolve("replica"),
				"replicaof 127.0.0.1 " + master.port());
		this.closing.add(replica);
		RedisClient client = RedisClient.create(RedisURI.create("127.0.0.1", master.port()));
		this.closing.add(client::shutdown);
		RedisClient replicaClient = RedisClient.create(RedisURI.create("127.0.0.1", replica.port()));
		this.closing.add(replicaClient::shutdown);
		StatefulRedisConnection<String, String> onReplica = replicaClient.connect();
		await().atMost(Duration.ofSeconds(30))
			.until(() -> onReplica.sync().info("replication").contains("master_link_status:up"));
		String name = TestRedis.uniqueName("replicas-ack");
		RedisQueue<String> queue = RedisQueue.builder(RedisQueueConnection.of(client), name)
			.replicasAck(1)
			.replicasAckTimeout(ACK_TIMEOUT)
			.build(ItemCodec.strings());
		this.closing.add(queue::shutDown);

		queue.add("a");
		// WAIT answered: the replica applied the add before add returned.
		assertThat(onReplica.sync().keys("*" + name + "*")).isNotEmpty();
		queue.addAfter("later", Duration.ofMinutes(5));
		queue.addRateLimited("limited");
		for (String item : List.of("a", "limited")) {
			assertThat(queue.get()).contains(item);
			assertThat(queue.done(queue.lease(item).orElseThrow())).isEqualTo(DoneResult.ACCEPTED);
		}
		assertThat(queue.unreplicatedWrites()).isZero();

		replica.suspend();
		try {
			assertThatExceptionOfType(UnreplicatedWriteException.class).isThrownBy(() -> queue.add("b"))
				.withMessageContaining("'" + name + "'")
				.withMessageContaining("the add of b")
				.withMessageContaining("replicas-ack")
				.withMessageContaining("may or may not survive a failover")
				.satisfies((ex) -> {
					assertThat(ex.replicasAsked()).isEqualTo(1);
					assertThat(ex.replicasConfirmed()).isZero();
				});
			assertThat(queue.len()).as("the master kept the add").isEqualTo(1);
			assertThatExceptionOfType(UnreplicatedWriteException.class)
				.isThrownBy(() -> queue.addAfter("c", Duration.ofMinutes(5)))
				.withMessageContaining("the addAfter of c");
			assertThat(queue.get()).contains("b");
			Lease lease = queue.lease("b").orElseThrow();
			assertThatExceptionOfType(UnreplicatedWriteException.class).isThrownBy(() -> queue.done(lease))
				.withMessageContaining("the done of b");
			assertThat(lease.outcome()).succeedsWithin(Duration.ZERO).isEqualTo(DoneResult.ACCEPTED);
			assertThat(queue.inFlight()).as("the master ended the lease").isEmpty();
			assertThat(queue.unreplicatedWrites()).isEqualTo(3);
			assertThatExceptionOfType(UnreplicatedWriteException.class).isThrownBy(() -> queue.add("d"));
		}
		finally {
			replica.resume();
		}
		assertThat(queue.unreplicatedWrites()).isEqualTo(4);
		assertThat(queue.get()).contains("d");
		replica.suspend();
		try {
			// A done that nobody waits for is counted only.
			queue.doneWithoutWaiting("d");
			await().atMost(Duration.ofSeconds(10)).until(() -> queue.unreplicatedWrites() == 5);
		}
		finally {
			replica.resume();
		}
		queue.add("e");
		assertThat(queue.unreplicatedWrites()).isEqualTo(5);
	}

	@Test
	void onAClusterTheWaitShouldGoToTheMasterThatTookTheWrite() throws Exception {
		ClusterWithReplicas cluster = new ClusterWithReplicas(this.dir);
		this.closing.add(cluster);
		RedisClusterClient client = RedisClusterClient.create(cluster.seeds(Duration.ofSeconds(2)));
		this.closing.add(client::shutdown);
		String name = TestRedis.uniqueName("replicas-ack-cluster");
		int owner = ClusterWithReplicas.masterOf(SlotHash.getSlot("{workqueue:" + name + "}"));
		RedisQueue<String> queue = RedisQueue.builder(RedisQueueConnection.of(client), name)
			.replicasAck(1)
			.replicasAckTimeout(ACK_TIMEOUT)
			.build(ItemCodec.strings());
		this.closing.add(queue::shutDown);
		queue.add("a");

		RedisProcess other = cluster.replica((owner + 1) % 3);
		other.suspend();
		try {
			queue.add("b");
			assertThat(queue.get()).contains("a");
			assertThat(queue.done(queue.lease("a").orElseThrow())).isEqualTo(DoneResult.ACCEPTED);
		}
		finally {
			other.resume();
		}
		assertThat(queue.unreplicatedWrites()).isZero();

		RedisProcess own = cluster.replica(owner);
		own.suspend();
		try {
			assertThatExceptionOfType(UnreplicatedWriteException.class).isThrownBy(() -> queue.add("c"))
				.withMessageContaining("the add of c");
			assertThat(queue.get()).contains("b");
			Lease lease = queue.lease("b").orElseThrow();
			assertThatExceptionOfType(UnreplicatedWriteException.class).isThrownBy(() -> queue.done(lease));
		}
		finally {
			own.resume();
		}
		assertThat(queue.unreplicatedWrites()).isEqualTo(2);
		queue.add("d");
		assertThat(queue.unreplicatedWrites()).isEqualTo(2);
	}

}
