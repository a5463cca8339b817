package io.github.workqueue.redis.internal.link;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.Executor;
import java.util.concurrent.Future;
import java.util.function.Function;

import io.lettuce.core.RedisException;
import io.lettuce.core.api.StatefulRedisConnection;
import io.lettuce.core.cluster.SlotHash;
import io.lettuce.core.cluster.api.StatefulRedisClusterConnection;
import io.lettuce.core.cluster.models.partitions.RedisClusterNode;

/**
 * What a Redis Cluster connection does that a standalone one does not, for
 * {@link RedisLink}: {@code WAIT} sent to the master of a key's slot, and the function
 * library loaded on every master. Stateless. A node's connection may be opened on the
 * way, and then ends on a Lettuce event loop: the command that follows it is then sent
 * from the executor given, since Lettuce's write takes a lock that another writer may
 * hold; a connection already open (the usual case) is used on the caller's thread.
 */
final class ClusterRouting {

	private ClusterRouting() {
	}

	/**
	 * Sends {@code WAIT} to the master that serves the key's slot, on the connection that
	 * carries the writes routed to that slot (Lettuce keeps one per intent, host and
	 * port), so that it waits for those writes.
	 */
	static CompletableFuture<Long> waitOnMasterOf(StatefulRedisClusterConnection<String, String> connection, String key,
			int replicas, long millis, Executor sendFrom) {
		RedisClusterNode master = connection.getPartitions().getMasterBySlot(SlotHash.getSlot(key));
		if (master == null) {
			return CompletableFuture.failedFuture(new RedisException("No master serves the slot of " + key));
		}
		return offEventLoop(connection.getConnectionAsync(master.getUri().getHost(), master.getUri().getPort()),
				(node) -> node.async().waitForReplication(replicas, millis), sendFrom);
	}

	/**
	 * Sends a command on a node's connection once it is open: at once on this thread if
	 * it is, else from {@code sendFrom} (the connect ends on an event loop).
	 */
	private static <R> CompletableFuture<R> offEventLoop(
			CompletableFuture<StatefulRedisConnection<String, String>> nodeConnection,
			Function<StatefulRedisConnection<String, String>, CompletionStage<R>> send, Executor sendFrom) {
		return nodeConnection.isDone() ? nodeConnection.thenCompose(send)
				: nodeConnection.thenComposeAsync(send, sendFrom);
	}

	/**
	 * Loads the library on each master of the cluster, all at once, and waits for every
	 * master's answer uninterruptibly, as for a script: a function is kept by the master
	 * that loaded it and its replicas only.
	 */
	static void loadOnEveryMaster(StatefulRedisClusterConnection<String, String> connection, Executor sendFrom) {
		List<Future<String>> loads = new ArrayList<>();
		for (RedisClusterNode node : connection.getPartitions()) {
			// A master the cluster marked failing is being replaced: its replica loads
			// the library when it refuses a call in turn.
			if (node.is(RedisClusterNode.NodeFlag.UPSTREAM) && !node.is(RedisClusterNode.NodeFlag.FAIL)
					&& !node.is(RedisClusterNode.NodeFlag.EVENTUAL_FAIL)) {
				loads.add(offEventLoop(connection.getConnectionAsync(node.getNodeId()),
						(master) -> master.async().functionLoad(ScriptLibrary.CODE, true), sendFrom));
			}
		}
		for (Future<String> load : loads) {
			SentScript.await(load, connection.getTimeout());
		}
	}

}
