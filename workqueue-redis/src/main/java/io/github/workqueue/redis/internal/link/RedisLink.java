package io.github.workqueue.redis.internal.link;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.Executor;
import java.util.function.Function;
import java.util.function.LongConsumer;
import java.util.function.Supplier;

import io.lettuce.core.AbstractRedisClient;
import io.lettuce.core.RedisClient;
import io.lettuce.core.RedisCommandTimeoutException;
import io.lettuce.core.RedisConnectionException;
import io.lettuce.core.RedisException;
import io.lettuce.core.RedisFuture;
import io.lettuce.core.ScriptOutputType;
import io.lettuce.core.api.StatefulConnection;
import io.lettuce.core.api.StatefulRedisConnection;
import io.lettuce.core.api.async.RedisListAsyncCommands;
import io.lettuce.core.cluster.RedisClusterClient;
import io.lettuce.core.cluster.api.StatefulRedisClusterConnection;
import io.lettuce.core.codec.StringCodec;
import org.jspecify.annotations.Nullable;

/**
 * The commands the queues send, over standalone Redis or Redis Cluster. One shared
 * connection carries scripts (sent as {@link ScriptCalls} says) and reads (Lettuce
 * connections are thread-safe and pipelined); each queue's wake-up pops
 * ({@link WakeHints}) use connections of their own.
 *
 * <p>
 * A standalone (or Sentinel) shared connection that Lettuce reports lost is replaced by a
 * new connect, tried by the requests that come while it stays lost
 * ({@link SharedConnection}), so that the queues are served again as soon as Redis
 * answers, where Lettuce's own reconnect backs off to 30 seconds between tries.
 *
 * <p>
 * Thread-safe, and holds no lock of its own: the shared connection's opening, replacement
 * and closing are {@link SharedConnection}'s, under its monitor. Every wait for Redis
 * here is bounded: a reply by the connection's command timeout, a connect by the
 * {@link Connector}'s bound.
 */
public final class RedisLink implements AutoCloseable {

	private final Connector connector;

	/** The connection the queues' scripts and reads share. */
	private final SharedConnection connection;

	private final Function<StatefulConnection<String, String>, RedisListAsyncCommands<String, String>> lists;

	/** Waits for requests on their way, given the time left; see {@link #beforeClose}. */
	private final List<LongConsumer> beforeClose = new CopyOnWriteArrayList<>();

	/** How scripts reach the server, and their second tries. */
	private final ScriptCalls scripts = new ScriptCalls();

	private RedisLink(Connector connector, Function<StatefulConnection<String, String>, LinkCommands> commands,
			Function<StatefulConnection<String, String>, RedisListAsyncCommands<String, String>> lists,
			boolean replacesLost) {
		this.connector = connector;
		this.connection = new SharedConnection(connector, commands, replacesLost);
		this.lists = lists;
	}

	/**
	 * The shared connection's commands, connecting on first use
	 * ({@link SharedConnection}).
	 * @throws io.lettuce.core.RedisConnectionException while Redis cannot be reached
	 */
	private LinkCommands commands() {
		return this.connection.commands();
	}

	public static RedisLink standalone(RedisClient client) {
		return new RedisLink(connector(client, () -> client.connect(StringCodec.UTF8)), (connection) -> {
			var typed = (StatefulRedisConnection<String, String>) connection;
			var sync = typed.sync();
			return new LinkCommands(typed.async(), typed.async(),
					(key) -> SentScript.await(typed.async().functionLoad(ScriptLibrary.CODE, true),
							connection.getTimeout()),
					typed.async(), typed.async(), sync, sync,
					(key, replicas, millis) -> typed.async().waitForReplication(replicas, millis).toCompletableFuture(),
					connection.getTimeout());
		}, (connection) -> ((StatefulRedisConnection<String, String>) connection).async(), true);
	}

	public static RedisLink cluster(RedisClusterClient client) {
		Connector connector = connector(client, () -> client.connect(StringCodec.UTF8));
		return new RedisLink(connector, (connection) -> {
			var typed = (StatefulRedisClusterConnection<String, String>) connection;
			var sync = typed.sync();
			return new LinkCommands(typed.async(), typed.async(),
					(key) -> ClusterRouting.loadWhereRefused(typed, key, connector.threads()), typed.async(),
					typed.async(), sync, sync, (key, replicas, millis) -> ClusterRouting.waitOnMasterOf(typed, key,
							replicas, millis, connector.threads()),
					connection.getTimeout());
		}, (connection) -> ((StatefulRedisClusterConnection<String, String>) connection).async(), false);
	}

	/**
	 * Connects on connector threads, waited for at most twice the client's connect
	 * timeout: the socket's connect, then the handshake.
	 */
	private static Connector connector(AbstractRedisClient client,
			Supplier<? extends StatefulConnection<String, String>> connect) {
		return new Connector(connect::get, client.getOptions().getSocketOptions().getConnectTimeout().multipliedBy(2));
	}

	/**
	 * The threads that open connections and make second tries, off the caller's thread.
	 */
	public Executor helpers() {
		return this.connector.threads();
	}

	/** The command timeout of the shared connection, or the connect bound before it. */
	public Duration replyTimeout() {
		LinkCommands current = this.connection.ifOpen();
		return (current != null) ? current.timeout() : this.connector.bound();
	}

	/**
	 * How long a caller may wait for a request that goes to Redis: a connect if none is
	 * open, then a reply that waits for another before it (the earliest of a shard's
	 * parts on their way, see {@code Batcher}), then its own.
	 */
	public long requestBoundNanos() {
		// In nanoseconds: Duration's multipliedBy goes through BigDecimal, and every take
		// asks.
		return this.connector.bound().toNanos() + 2 * replyTimeout().toNanos();
	}

	/**
	 * Runs a script: as a function of {@link ScriptLibrary}, loading the library on the
	 * server first if it does not have it (a new server, or one restarted without
	 * persistence); or, once a server refused functions (Redis before 7, or a user whose
	 * ACL forbids them), by its digest, sending its text once per server that does not
	 * know it yet. Uninterruptible: a script may change the queue (grant a lease, end
	 * one), so its reply is always awaited; an interrupt that comes meanwhile is kept for
	 * the caller.
	 * @throws RedisCommandTimeoutException if no reply came within the connection's
	 * timeout
	 */
	public <R> R run(Script script, ScriptOutputType type, String[] keys, String... args) {
		LinkCommands current = commands();
		try {
			return SentScript.await(this.scripts.firstTry(current, script, type, keys, args), current.timeout());
		}
		catch (RedisException ex) {
			return this.scripts.secondTry(current, ex, script, type, keys, args);
		}
	}

	/**
	 * Runs a script that must run at most once, as {@link #run} does: the sender's id,
	 * the call's number and how long Redis keeps it follow the arguments (the script's
	 * last three ARGV, for {@code includes/once.lua}). The number is taken, and the call
	 * handed to Lettuce, under the numbers' monitor, so that the calls leave in the order
	 * of their numbers; the reply is waited for outside it.
	 * @throws RedisException as {@link #run} does, or the script's refusal of a call it
	 * ran already ({@link CallNumbers#isRepeatRefusal})
	 */
	public <R> R runOnce(CallNumbers numbers, Script script, ScriptOutputType type, String[] keys, String... args) {
		LinkCommands current = commands();
		ScriptCalls.Sending<R> numbered = (call) -> {
			synchronized (numbers) {
				return call.apply(numbers.numbered(args, current.timeout()));
			}
		};
		RedisFuture<R> reply = numbered
			.send((numberedArgs) -> this.scripts.firstTry(current, script, type, keys, numberedArgs));
		try {
			return SentScript.await(reply, current.timeout());
		}
		catch (RedisException ex) {
			// A second try goes under a new number: the first did not run, and calls
			// numbered since may have run.
			return this.scripts.secondTry(current, ex, script, type, keys, numbered);
		}
	}

	/**
	 * Sends a script without waiting for its reply, so that scripts for several shards
	 * travel together and no shard waits for another's; {@link Sent#reply()} reads the
	 * reply once it came.
	 */
	public <R> SentScript<R> send(Script script, ScriptOutputType type, String[] keys, String... args) {
		return send(script, type, keys, null, args);
	}

	/**
	 * Sends a script as {@link #send(Script, ScriptOutputType, String[], String...)} does
	 * and, if {@code ack} is given, once its reply came, {@code WAIT} for the replicas
	 * the ack asks: the sent script is answered when both are, and
	 * {@link Sent#confirmedReplicas()} says how many replicas confirmed it.
	 */
	public <R> SentScript<R> send(Script script, ScriptOutputType type, String[] keys, @Nullable ReplicaAck ack,
			String... args) {
		LinkCommands current = commands();
		RedisFuture<R> reply = this.scripts.firstTry(current, script, type, keys, args);
		// WAIT leaves from a helper thread, not from the event loop that completed the
		// script: Lettuce's write takes a lock that another writer may hold.
		Supplier<CompletableFuture<Long>> replicas = (ack != null) ? () -> CompletableFuture
			.supplyAsync(() -> current.replicaWait().send(keys[0], ack.replicas(), ack.timeout().toMillis()), helpers())
			.thenCompose((wait) -> wait) : null;
		Duration timeout = (ack != null) ? current.timeout().plus(ack.timeout()) : current.timeout();
		return new SentScript<>(reply.toCompletableFuture(),
				(failure) -> this.scripts.secondTry(current, failure, script, type, keys, args), timeout, replicas);
	}

	/**
	 * Waits, uninterruptibly, until as many replicas as the ack asks confirmed every
	 * write made so far on the connection to the key's master, or the ack's timeout
	 * passed (Redis's {@code WAIT}).
	 * @return how many replicas confirmed them, -1 if the wait failed or got no answer
	 */
	public long awaitReplicas(String key, ReplicaAck ack) {
		LinkCommands current = commands();
		try {
			return SentScript.await(current.replicaWait().send(key, ack.replicas(), ack.timeout().toMillis()),
					current.timeout().plus(ack.timeout()));
		}
		catch (RedisException ex) {
			return -1;
		}
	}

	public String hashGet(String key, String field) {
		return commands().hashes().hget(key, field);
	}

	public Map<String, String> hashGetAll(String key) {
		return commands().hashes().hgetall(key);
	}

	public long hashIncrement(String key, String field) {
		return commands().hashes().hincrby(key, field, 1);
	}

	/**
	 * Deletes a field from several hashes, the commands sent together: one round trip.
	 */
	public void hashDeletePipelined(String field, String... keys) {
		LinkCommands current = commands();
		List<RedisFuture<Long>> replies = new ArrayList<>(keys.length);
		for (String key : keys) {
			replies.add(current.asyncHashes().hdel(key, field));
		}
		for (RedisFuture<Long> reply : replies) {
			SentScript.await(reply, current.timeout());
		}
	}

	public void hashDelete(String key, String field) {
		commands().hashes().hdel(key, field);
	}

	long listLength(String key) {
		return commands().lists().llen(key);
	}

	/**
	 * Listens for the wake-up hints on a list key, on a connection of its own.
	 * @param block how long one blocking pop waits at most
	 */
	public WakeHints wakeHints(String key, Duration block) {
		return new WakeHints(this.connector, this.lists, key, block, System::nanoTime);
	}

	/**
	 * Sets a hash field without waiting for the reply. Not connected yet, it connects on
	 * a helper thread (unless a connect is under way) and sets it there; a failure is
	 * dropped. For figures that the next call writes again (a heartbeat).
	 */
	public void hashSetQuietly(String key, String field, String value) {
		LinkCommands current = this.connection.ifOpen();
		if (current != null) {
			current.asyncHashes().hset(key, field, value);
		}
		else if (!isConnecting() && !isClosed()) {
			helpers().execute(() -> {
				try {
					commands().asyncHashes().hset(key, field, value);
				}
				catch (RedisException ex) {
					// Written again a second later.
				}
			});
		}
	}

	/**
	 * Deletes hash fields without waiting for the reply, if connected; otherwise does
	 * nothing.
	 */
	public void hashDeleteQuietly(String key, String... fields) {
		LinkCommands current = this.connection.ifOpen();
		if (current != null) {
			current.asyncHashes().hdel(key, fields);
		}
	}

	/**
	 * Passes a hint on to another instance: one more element on the wake-up list, without
	 * waiting for the reply. Called on a batch sender's thread, never on an event loop (a
	 * write may wait for Lettuce's writer lock); it never connects, and a hint that finds
	 * no connection or fails is lost (the other instances poll within their longest
	 * block).
	 */
	public void pushHint(String key) {
		LinkCommands current = this.connection.ifOpen();
		if (current == null) {
			return;
		}
		try {
			current.asyncLists().rpush(key, "1");
		}
		catch (RuntimeException ex) {
			// Lost, as above.
		}
	}

	/**
	 * Asks to be given, before the connection closes, a time to wait for requests on
	 * their way (the dones that queues sent without waiting).
	 */
	public void beforeClose(LongConsumer awaitForNanos) {
		this.beforeClose.add(awaitForNanos);
	}

	/** Whether the shared connection is being opened and none is open yet. */
	public boolean isConnecting() {
		return this.connection.isConnecting();
	}

	/** Whether {@link #close()} was called: no request will be answered again. */
	public boolean isClosed() {
		return this.connection.isClosed();
	}

	/**
	 * Closes the connection, after waiting (at most {@link #requestBoundNanos()} in all)
	 * for the requests that queues sent without waiting
	 * ({@link SharedConnection#close()}).
	 */
	@Override
	public void close() {
		long deadline = System.nanoTime() + requestBoundNanos();
		for (LongConsumer awaitFor : this.beforeClose) {
			awaitFor.accept(Math.max(0, deadline - System.nanoTime()));
		}
		this.connection.close();
	}

}
