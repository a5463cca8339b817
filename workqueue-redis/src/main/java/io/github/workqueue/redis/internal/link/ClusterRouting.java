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
 * library loaded on every master, waited for on the one that refused a call. Stateless. A
 * node's connection may be opened on the way, and then ends on a Lettuce event loop: the
 * command that follows it is then sent from the executor given, since Lettuce's write
 * takes a lock that another writer may hold; a connection already open (the usual case)
 * is used on the caller's thread.
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
	 * Loads the library on each master of the cluster, all at once, and waits,
	 * uninterruptibly as for a script, for the answer of the master that serves the key's
	 * slot only: that master refused the call, and a function is kept by the master that
	 * loaded it and its replicas only. The other masters' loads go on without a wait, so
	 * that a master that does not answer (killed, and not yet marked failing) holds no
	 * other shard's second try; one whose load failed refuses a call in turn and loads it
	 * then.
	 * @param key a key of the refused call, or empty if it had none (then every load is
	 * waited for)
	 */
	static void loadWhereRefused(StatefulRedisClusterConnection<String, String> connection, String key,
			Executor sendFrom) {
		RedisClusterNode refused = key.isEmpty() ? null
				: connection.getPartitions().getMasterBySlot(SlotHash.getSlot(key));
		Future<String> awaited = null;
		List<Future<String>> all = new ArrayList<>();
		for (RedisClusterNode node : connection.getPartitions()) {
			// A master the cluster marked failing is being replaced: its replica loads
			// the library when it refuses a call in turn.
			if (node.is(RedisClusterNode.NodeFlag.UPSTREAM) && !node.is(RedisClusterNode.NodeFlag.FAIL)
					&& !node.is(RedisClusterNode.NodeFlag.EVENTUAL_FAIL)) {
				Future<String> load = offEventLoop(connection.getConnectionAsync(node.getNodeId()),
						(master) -> master.async().functionLoad(ScriptLibrary.CODE, true), sendFrom);
				all.add(load);
				if (refused != null && node.getNodeId().equals(refused.getNodeId())) {
					awaited = load;
				}
			}
		}
		if (awaited != null) {
			SentScript.await(awaited, connection.getTimeout());
			return;
		}
		// No key, or its slot's master not known here (a topology being refreshed):
		// every load.
		for (Future<String> load : all) {
			SentScript.await(load, connection.getTimeout());
		}
	}

}
