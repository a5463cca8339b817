package io.github.workqueue.redis;

import java.util.Objects;

import io.github.workqueue.redis.internal.link.RedisLink;
import io.lettuce.core.RedisClient;
import io.lettuce.core.cluster.RedisClusterClient;

/**
 * Where the queues' Redis is: a standalone server or a Redis Cluster, through a Lettuce
 * client that the application owns (and shuts down). Every queue keeps its keys in one
 * cluster slot.
 *
 * <p>
 * Thread-safe. One connection carries every queue's scripts; each thread blocked in
 * {@code get} uses a connection of its own from a pool, so that blocking never delays
 * other commands.
 */
public final class RedisQueueConnection implements AutoCloseable {

	private final RedisLink link;

	private RedisQueueConnection(RedisLink link) {
		this.link = link;
	}

	/**
	 * Uses a standalone Redis (or one reached through Sentinel by the client's URI).
	 * @param client the client
	 * @return the connection
	 */
	public static RedisQueueConnection of(RedisClient client) {
		Objects.requireNonNull(client, "client");
		return new RedisQueueConnection(RedisLink.standalone(client));
	}

	/**
	 * Uses a Redis Cluster.
	 * @param client the cluster client
	 * @return the connection
	 */
	public static RedisQueueConnection of(RedisClusterClient client) {
		Objects.requireNonNull(client, "client");
		return new RedisQueueConnection(RedisLink.cluster(client));
	}

	RedisLink link() {
		return this.link;
	}

	/**
	 * Closes the connections opened here; the client stays open.
	 */
	@Override
	public void close() {
		this.link.close();
	}

}
