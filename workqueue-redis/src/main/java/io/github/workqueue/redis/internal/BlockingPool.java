package io.github.workqueue.redis.internal;

import java.time.Duration;
import java.util.concurrent.ConcurrentLinkedDeque;
import java.util.function.Function;
import java.util.function.Supplier;

import io.lettuce.core.api.StatefulConnection;
import io.lettuce.core.api.sync.RedisListCommands;

/**
 * Connections for one queue's blocked getters: a blocking pop holds its connection, so
 * each blocked thread borrows one. Closing the pool fails the pops in progress, which is
 * how a shutdown wakes them. Thread-safe.
 */
final class BlockingPool {

	private final Supplier<StatefulConnection<String, String>> connector;

	private final Function<StatefulConnection<String, String>, RedisListCommands<String, String>> lists;

	private final ConcurrentLinkedDeque<StatefulConnection<String, String>> idle = new ConcurrentLinkedDeque<>();

	private final ConcurrentLinkedDeque<StatefulConnection<String, String>> all = new ConcurrentLinkedDeque<>();

	private volatile boolean closed;

	BlockingPool(Supplier<StatefulConnection<String, String>> connector,
			Function<StatefulConnection<String, String>, RedisListCommands<String, String>> lists) {
		this.connector = connector;
		this.lists = lists;
	}

	/**
	 * Waits on a list key with {@code BLPOP} for at most the timeout.
	 * @return whether a hint was popped
	 */
	boolean awaitHint(String key, Duration timeout) {
		StatefulConnection<String, String> connection = this.idle.pollFirst();
		if (connection == null) {
			connection = this.connector.get();
			this.all.add(connection);
			if (this.closed) {
				close();
				return false;
			}
		}
		double seconds = Math.max(0.001, timeout.toNanos() / 1e9);
		boolean popped;
		try {
			popped = this.lists.apply(connection).blpop(seconds, key) != null;
		}
		catch (RuntimeException ex) {
			// Interrupted or failed: the pop may still be pending on the connection,
			// which
			// would hold up the next pop sent on it. Close it rather than reuse it.
			this.all.remove(connection);
			connection.closeAsync();
			throw ex;
		}
		this.idle.addFirst(connection);
		return popped;
	}

	void close() {
		this.closed = true;
		StatefulConnection<String, String> connection;
		while ((connection = this.all.pollFirst()) != null) {
			this.idle.remove(connection);
			connection.closeAsync();
		}
	}

}
