package io.github.workqueue.redis.internal;

import java.util.Map;
import java.util.function.Function;
import java.util.function.Supplier;

import io.lettuce.core.RedisClient;
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

/**
 * The commands the queues send, over standalone Redis or Redis Cluster. One shared
 * connection carries scripts and reads (Lettuce connections are thread-safe and
 * pipelined); blocking pops use pooled connections of their own, one per blocked thread.
 * Thread-safe.
 */
public final class RedisLink implements AutoCloseable {

	private final StatefulConnection<String, String> shared;

	private final Commands commands;

	private final Supplier<StatefulConnection<String, String>> connector;

	private final Function<StatefulConnection<String, String>, RedisListCommands<String, String>> lists;

	private RedisLink(Supplier<StatefulConnection<String, String>> connector,
			Function<StatefulConnection<String, String>, Commands> commands,
			Function<StatefulConnection<String, String>, RedisListCommands<String, String>> lists) {
		this.connector = connector;
		this.shared = connector.get();
		this.commands = commands.apply(this.shared);
		this.lists = lists;
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
			return (R) this.commands.scripting().evalsha(script.sha1(), type, keys, args);
		}
		catch (RedisNoScriptException ex) {
			return (R) this.commands.scripting().eval(script.body(), type, keys, args);
		}
	}

	String hashGet(String key, String field) {
		return this.commands.hashes().hget(key, field);
	}

	Map<String, String> hashGetAll(String key) {
		return this.commands.hashes().hgetall(key);
	}

	void hashDelete(String key, String field) {
		this.commands.hashes().hdel(key, field);
	}

	long listLength(String key) {
		return this.commands.lists().llen(key);
	}

	long sortedSetSize(String key) {
		return this.commands.sortedSets().zcard(key);
	}

	/**
	 * Opens a pool of connections for blocking pops, for one queue.
	 */
	BlockingPool openBlockingPool() {
		return new BlockingPool(this.connector, this.lists);
	}

	@Override
	public void close() {
		this.shared.close();
	}

	private record Commands(RedisScriptingCommands<String, String> scripting, RedisHashCommands<String, String> hashes,
			RedisListCommands<String, String> lists, RedisSortedSetCommands<String, String> sortedSets) {
	}

}
