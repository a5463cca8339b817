package io.github.workqueue.redis.internal;

import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executor;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.SynchronousQueue;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Supplier;

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
 * keeps its thread, and whoever waited for it has given up at the bound.
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
		return CompletableFuture.supplyAsync(this.connect, CONNECTS);
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
