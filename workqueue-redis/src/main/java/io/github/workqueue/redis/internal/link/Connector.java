package io.github.workqueue.redis.internal.link;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Executor;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.SynchronousQueue;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Supplier;

import io.lettuce.core.RedisConnectionException;
import io.lettuce.core.api.StatefulConnection;

/**
 * Opens connections to Redis on threads of its own, never on the caller's. Lettuce's
 * {@code connect} waits without a bound for a future that its event loop completes: a
 * caller that held anything a Lettuce callback needs while it connected would stop that
 * event loop, and with it the connect it waits for. Here the caller gets a future, and
 * waits for it with a bound ({@link #bound()}), or not at all.
 *
 * <p>
 * Thread-safe. The threads are daemons named {@code workqueue-redis-helper-N}, made when
 * a connect starts and ended after a minute unused; a connect that Lettuce never ends
 * keeps its thread, and whoever waited for it has given up at the bound. Once
 * {@link #close closed} no connect starts, and the close waits (bounded) for those under
 * way: a connect that ended after the application shut the client's event loops down
 * would fail there with Netty's errors. The monitor guards {@code running} and
 * {@code closed}, and is never held across a connect.
 */
final class Connector {

	private static final AtomicInteger threads = new AtomicInteger();

	private static final ExecutorService CONNECTS = new ThreadPoolExecutor(0, Integer.MAX_VALUE, 60, TimeUnit.SECONDS,
			new SynchronousQueue<>(), (task) -> {
				Thread thread = new Thread(task, "workqueue-redis-helper-" + threads.incrementAndGet());
				thread.setDaemon(true);
				return thread;
			});

	private final Supplier<StatefulConnection<String, String>> connect;

	private final Duration bound;

	/** The connects under way. */
	private final List<CompletableFuture<?>> running = new ArrayList<>();

	private boolean closed;

	/**
	 * @param connect Lettuce's blocking connect
	 * @param bound how long a caller waits for a connection at most
	 */
	Connector(Supplier<StatefulConnection<String, String>> connect, Duration bound) {
		this.connect = connect;
		this.bound = bound;
	}

	/** Starts a connect; the future ends with the connection or the connect's failure. */
	CompletableFuture<StatefulConnection<String, String>> connect() {
		CompletableFuture<StatefulConnection<String, String>> connect;
		synchronized (this) {
			if (this.closed) {
				return CompletableFuture.failedFuture(new RedisConnectionException("the connection was closed"));
			}
			connect = CompletableFuture.supplyAsync(this.connect, CONNECTS);
			this.running.add(connect);
		}
		connect.whenComplete((connection, failure) -> ended(connect));
		return connect;
	}

	private synchronized void ended(CompletableFuture<?> connect) {
		this.running.remove(connect);
	}

	/**
	 * Starts no connect from now on, and waits for those under way to end, at most the
	 * given time.
	 */
	void close(Duration wait) {
		CompletableFuture<?>[] underWay;
		synchronized (this) {
			this.closed = true;
			underWay = this.running.toArray(CompletableFuture<?>[]::new);
		}
		try {
			CompletableFuture.allOf(underWay).get(wait.toNanos(), TimeUnit.NANOSECONDS);
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
		}
		catch (ExecutionException | TimeoutException ex) {
			// A failed connect has ended; one still under way keeps its thread (above).
		}
	}

	/**
	 * The threads connects run on, also lent for other slow steps off a caller's thread.
	 */
	Executor threads() {
		return CONNECTS;
	}

	/** How long a caller waits for a connection at most. */
	Duration bound() {
		return this.bound;
	}

}
