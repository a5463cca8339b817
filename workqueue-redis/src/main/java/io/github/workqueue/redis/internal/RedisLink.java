package io.github.workqueue.redis.internal;

import java.util.Map;
import java.util.function.Function;
import java.util.function.Supplier;

import io.lettuce.core.RedisClient;
import io.lettuce.core.RedisException;
import io.lettuce.core.RedisNoScriptException;
import io.lettuce.core.ScriptOutputType;
import io.lettuce.core.api.StatefulConnection;
import io.lettuce.core.api.StatefulRedisConnection;
import io.lettuce.core.api.sync.RedisHashCommands;
import io.lettuce.core.api.sync.RedisListCommands;
import io.lettuce.core.api.sync.RedisScriptingCommands;
import io.lettuce.core.api.sync.RedisSortedSetCommands;
import io.lettuce.core.cluster.RedisClusterClient;
import io.lettuce.core.cluster.api.StatefulRedisClusterConnection;
import io.lettuce.core.codec.StringCodec;
import org.jspecify.annotations.Nullable;

/**
 * The commands the queues send, over standalone Redis or Redis Cluster. One shared
 * connection carries scripts and reads (Lettuce connections are thread-safe and
 * pipelined); blocking pops use pooled connections of their own, one per blocked thread.
 * Thread-safe.
 */
public final class RedisLink implements AutoCloseable {

	private final Supplier<StatefulConnection<String, String>> connector;

	private final Function<StatefulConnection<String, String>, Commands> commandsOf;

	private final Function<StatefulConnection<String, String>, RedisListCommands<String, String>> lists;

	private @Nullable StatefulConnection<String, String> shared;

	private volatile @Nullable Commands commands;

	private boolean closed;

	private RedisLink(Supplier<StatefulConnection<String, String>> connector,
			Function<StatefulConnection<String, String>, Commands> commands,
			Function<StatefulConnection<String, String>, RedisListCommands<String, String>> lists) {
		this.connector = connector;
		this.commandsOf = commands;
		this.lists = lists;
	}

	/**
	 * The shared connection's commands, connecting on first use so that an application
	 * can start while Redis is down (Lettuce reconnects on its own once connected).
	 * @throws io.lettuce.core.RedisConnectionException while Redis cannot be reached
	 */
	private Commands commands() {
		Commands current = this.commands;
		if (current != null) {
			return current;
		}
		synchronized (this) {
			if (this.commands == null) {
				if (this.closed) {
					throw new RedisException("The Redis queue connection is closed");
				}
				this.shared = this.connector.get();
				this.commands = this.commandsOf.apply(this.shared);
			}
			return this.commands;
		}
	}

	public static RedisLink standalone(RedisClient client) {
		return new RedisLink(() -> client.connect(StringCodec.UTF8), (connection) -> {
			var sync = ((StatefulRedisConnection<String, String>) connection).sync();
			return new Commands(sync, sync, sync, sync);
		}, (connection) -> ((StatefulRedisConnection<String, String>) connection).sync());
	}

	public static RedisLink cluster(RedisClusterClient client) {
		return new RedisLink(() -> client.connect(StringCodec.UTF8), (connection) -> {
			var sync = ((StatefulRedisClusterConnection<String, String>) connection).sync();
			return new Commands(sync, sync, sync, sync);
		}, (connection) -> ((StatefulRedisClusterConnection<String, String>) connection).sync());
	}

	/**
	 * Runs a script by its digest, sending its text once per server that does not know it
	 * yet.
	 */
	@SuppressWarnings("unchecked")
	<R> R run(Script script, ScriptOutputType type, String[] keys, String... args) {
		try {
			return (R) commands().scripting().evalsha(script.sha1(), type, keys, args);
		}
		catch (RedisNoScriptException ex) {
			return (R) commands().scripting().eval(script.body(), type, keys, args);
		}
	}

	String hashGet(String key, String field) {
		return commands().hashes().hget(key, field);
	}

	Map<String, String> hashGetAll(String key) {
		return commands().hashes().hgetall(key);
	}

	void hashDelete(String key, String field) {
		commands().hashes().hdel(key, field);
	}

	long listLength(String key) {
		return commands().lists().llen(key);
	}

	long sortedSetSize(String key) {
		return commands().sortedSets().zcard(key);
	}

	/**
	 * Opens a pool of connections for blocking pops, for one queue.
	 */
	BlockingPool openBlockingPool() {
		return new BlockingPool(this.connector, this.lists);
	}

	@Override
	public synchronized void close() {
		this.closed = true;
		if (this.shared != null) {
			this.shared.close();
		}
	}

	private record Commands(RedisScriptingCommands<String, String> scripting, RedisHashCommands<String, String> hashes,
			RedisListCommands<String, String> lists, RedisSortedSetCommands<String, String> sortedSets) {
	}

}
