package io.github.workqueue.redis.internal.link;

import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.Function;

import io.lettuce.core.RedisConnectionException;
import io.lettuce.core.RedisException;
import io.lettuce.core.api.StatefulConnection;
import org.jspecify.annotations.Nullable;

/**
 * The one connection a {@link RedisLink} shares between its queues' requests: opened on
 * first use (so that an application can start while Redis is down), replaced by a new
 * connect while Lettuce reports it lost (standalone and Sentinel), and closed once.
 *
 * <p>
 * <b>Concurrency.</b> Thread-safe. This object's monitor guards the connection's opening
 * ({@code opening}), replacement ({@code replacement}) and closing ({@code closed}), and
 * the writes of {@code shared} and {@code commands}, which are read without it; it is
 * never held across I/O or a wait, and no Lettuce callback takes it. Every wait for Redis
 * here is bounded by the {@link Connector}'s bound or {@link #REPLACEMENT_WAIT_MILLIS}.
 */
final class SharedConnection {

	/**
	 * How long a request waits for the replacement of a lost shared connection
	 * ({@link #replacedOr}) before it goes on the lost one.
	 */
	static final long REPLACEMENT_WAIT_MILLIS = 200;

	/** How long {@link #close()} waits for the connects under way to end. */
	private static final Duration CONNECTS_AT_CLOSE = Duration.ofSeconds(1);

	private final Connector connector;

	private final Function<StatefulConnection<String, String>, LinkCommands> commandsOf;

	/**
	 * Whether a shared connection that Lettuce reports lost is replaced by a new connect
	 * rather than left to Lettuce's reconnect, whose backoff grows to 30 seconds (a
	 * standalone or Sentinel client; a cluster's connection reconnects node by node).
	 */
	private final boolean replacesLost;

	/**
	 * Written under the monitor; read without it to ask whether it is open.
	 */
	private volatile @Nullable StatefulConnection<String, String> shared;

	/** The commands of {@code shared}; written under the monitor. */
	private volatile @Nullable LinkCommands commands;

	/**
	 * The replacement connect under way, done once its connection was taken or dropped;
	 * guarded by the monitor.
	 */
	private @Nullable CompletableFuture<Void> replacement;

	/** The connect of the shared connection under way; guarded by the monitor. */
	private @Nullable CompletableFuture<LinkCommands> opening;

	private boolean closed;

	SharedConnection(Connector connector, Function<StatefulConnection<String, String>, LinkCommands> commandsOf,
			boolean replacesLost) {
		this.connector = connector;
		this.commandsOf = commandsOf;
		this.replacesLost = replacesLost;
	}

	/** The commands of the connection if it is open, without connecting. */
	@Nullable LinkCommands ifOpen() {
		return this.commands;
	}

	/**
	 * The connection's commands, connecting on first use so that an application can start
	 * while Redis is down (once connected, Lettuce reconnects on its own, and a lost
	 * connection is also replaced, see {@link #replacedOr}). The connect runs on a
	 * {@link Connector} thread; callers wait for it at most the connector's bound, and
	 * callers that come meanwhile wait for the same connect.
	 * @throws io.lettuce.core.RedisConnectionException while Redis cannot be reached
	 */
	LinkCommands commands() {
		LinkCommands current = this.commands;
		if (current != null) {
			StatefulConnection<String, String> connection = this.shared;
			if (this.replacesLost && connection != null && !connection.isOpen()) {
				return replacedOr(current);
			}
			return current;
		}
		CompletableFuture<LinkCommands> connect;
		synchronized (this) {
			if (this.commands != null) {
				return this.commands;
			}
			if (this.closed) {
				throw new RedisConnectionException("The Redis queue connection is closed");
			}
			if (this.opening == null) {
				CompletableFuture<LinkCommands> started = this.connector.connect().thenApply(this::opened);
				started.whenComplete((opened, failure) -> connectEnded(started));
				this.opening = started.isDone() ? null : started;
				connect = started;
			}
			else {
				connect = this.opening;
			}
		}
		try {
			return connect.get(this.connector.bound().toNanos(), TimeUnit.NANOSECONDS);
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			throw new RedisConnectionException("Interrupted while connecting to Redis", ex);
		}
		catch (ExecutionException ex) {
			Throwable cause = (ex.getCause() instanceof CompletionException wrapped && wrapped.getCause() != null)
					? wrapped.getCause() : ex.getCause();
			throw (cause instanceof RedisException redis) ? redis
					: new RedisConnectionException("Could not connect to Redis: " + cause, cause);
		}
		catch (TimeoutException ex) {
			throw new RedisConnectionException("No connection to Redis within " + this.connector.bound());
		}
	}

	/**
	 * Keeps the shared connection, on the connector's thread; one opened after close is
	 * closed.
	 */
	private LinkCommands opened(StatefulConnection<String, String> connection) {
		synchronized (this) {
			if (!this.closed) {
				this.shared = connection;
				LinkCommands opened = this.commandsOf.apply(connection);
				this.commands = opened;
				return opened;
			}
		}
		connection.closeAsync();
		throw new RedisConnectionException("The Redis queue connection is closed");
	}

	/**
	 * While the shared connection is lost, connects anew (one connect at a time) and
	 * waits for it up to {@link #REPLACEMENT_WAIT_MILLIS}, so that the queues are served
	 * again as soon as Redis answers, where Lettuce's own reconnect waits ever longer
	 * between tries (up to 30 seconds, the client's reconnect delay). While Redis does
	 * not answer the connect fails at once (or at the wait), and the request goes on the
	 * lost connection, to fail or be answered as before.
	 * @param lost the lost connection's commands
	 * @return the replacement's commands, or {@code lost}
	 */
	private LinkCommands replacedOr(LinkCommands lost) {
		CompletableFuture<Void> connecting;
		synchronized (this) {
			StatefulConnection<String, String> connection = this.shared;
			if (this.closed || connection == null || connection.isOpen()) {
				return (this.commands != null) ? this.commands : lost;
			}
			if (this.replacement == null) {
				CompletableFuture<Void> started = this.connector.connect()
					.handle((opened, failure) -> replaced(opened));
				this.replacement = started.isDone() ? null : started;
				connecting = started;
			}
			else {
				connecting = this.replacement;
			}
		}
		try {
			connecting.get(REPLACEMENT_WAIT_MILLIS, TimeUnit.MILLISECONDS);
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
		}
		catch (ExecutionException | TimeoutException ex) {
			// Not replaced yet: the lost connection it is.
		}
		LinkCommands now = this.commands;
		return (now != null) ? now : lost;
	}

	/**
	 * Takes a replacement connection, on the connector's thread, if the shared one is
	 * still lost, and closes the lost one (what it held for Lettuce's reconnect was asked
	 * while Redis did not answer, and fails now rather than at its timeout); otherwise
	 * (Lettuce reconnected meanwhile, or the link closed) closes the new one.
	 */
	private @Nullable Void replaced(@Nullable StatefulConnection<String, String> connection) {
		StatefulConnection<String, String> unused;
		synchronized (this) {
			this.replacement = null;
			if (connection == null) {
				return null;
			}
			StatefulConnection<String, String> lost = this.shared;
			if (this.closed || lost == null || lost.isOpen()) {
				unused = connection;
			}
			else {
				this.shared = connection;
				this.commands = this.commandsOf.apply(connection);
				unused = lost;
			}
		}
		unused.closeAsync();
		return null;
	}

	private synchronized void connectEnded(CompletableFuture<LinkCommands> connect) {
		if (this.opening == connect) {
			this.opening = null;
		}
	}

	/** Whether the shared connection is being opened and none is open yet. */
	synchronized boolean isConnecting() {
		return this.commands == null && this.opening != null;
	}

	synchronized boolean isClosed() {
		return this.closed;
	}

	/**
	 * Closes the connection; no connect starts from then on, and those under way are
	 * waited for up to {@link #CONNECTS_AT_CLOSE}, before the application shuts the
	 * client down: a connect that ended after that (a reconnect during an outage) would
	 * fail on its stopped event loop.
	 */
	void close() {
		StatefulConnection<String, String> open;
		synchronized (this) {
			this.closed = true;
			open = this.shared;
		}
		this.connector.close(CONNECTS_AT_CLOSE);
		if (open != null) {
			open.close();
		}
	}

}
