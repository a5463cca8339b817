package io.github.workqueue.redis.internal.link;

import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.function.Consumer;

import io.lettuce.core.api.async.RedisFunctionAsyncCommands;
import io.lettuce.core.api.async.RedisHashAsyncCommands;
import io.lettuce.core.api.async.RedisListAsyncCommands;
import io.lettuce.core.api.async.RedisScriptingAsyncCommands;
import io.lettuce.core.api.sync.RedisHashCommands;
import io.lettuce.core.api.sync.RedisListCommands;

/**
 * The commands of {@link RedisLink}'s shared connection, standalone or cluster alike.
 *
 * @param scripting scripts, where functions are refused
 * @param functions calls of the function library
 * @param libraryLoader loads the library where the server lacks it, given a key of the
 * refused call (on every master of a cluster, waiting for the key's)
 * @param asyncHashes hash commands, not waited for
 * @param asyncLists list commands, not waited for
 * @param hashes hash commands, waited for
 * @param lists list commands, waited for
 * @param replicaWait {@code WAIT}, sent where the writes to a key went
 * @param timeout the connection's command timeout
 */
record LinkCommands(RedisScriptingAsyncCommands<String, String> scripting,
		RedisFunctionAsyncCommands<String, String> functions, Consumer<String> libraryLoader,
		RedisHashAsyncCommands<String, String> asyncHashes, RedisListAsyncCommands<String, String> asyncLists,
		RedisHashCommands<String, String> hashes, RedisListCommands<String, String> lists, ReplicaWait replicaWait,
		Duration timeout) {

	/** Redis's {@code WAIT}, sent where the writes to the key went. */
	@FunctionalInterface
	interface ReplicaWait {

		CompletableFuture<Long> send(String key, int replicas, long timeoutMillis);

	}

}
