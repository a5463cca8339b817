package io.github.workqueue.redis.internal.link;

import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.function.Consumer;
import java.util.function.Function;
import java.util.function.LongSupplier;

import io.lettuce.core.KeyValue;
import io.lettuce.core.RedisFuture;
import io.lettuce.core.api.StatefulConnection;
import io.lettuce.core.api.async.RedisListAsyncCommands;
import org.jspecify.annotations.Nullable;

/**
 * Listens for one queue's wake-up hints for one instance: at most one {@code BLPOP} at a
 * time, on a connection of its own, so that however many of the instance's threads wait
 * for items, one hint wakes one instance. A hint is never state: whoever is woken runs
 * the batch script to see what is there.
 *
 * <p>
 * Concurrency: {@link #listen} is called by the batch sender, the pop's completion runs
 * on a Lettuce event-loop thread, a connect's completion on a {@link Connector} thread.
 * The fields are guarded by this object's monitor, which is never held across I/O or a
 * wait: connections are opened by the {@link Connector}, and pops are sent and
 * connections closed after the monitor is released. So a completion that takes the
 * monitor never waits for a thread that waits on Redis. A connection whose pop failed on
 * an event loop is closed by the next {@link #listen} or {@link #close}, never on that
 * event loop: Lettuce's close of a cluster connection takes a lock, and so does handing
 * work to a thread pool. Invariants: at most one pop is pending or being sent
 * ({@code sending}); at most one connect is followed at a time (a later one replaces a
 * connect that did not end within the connector's bound); at most one dropped connection
 * waits to be closed ({@code dropped}: a drop needs a connection, which only a listen
 * makes, and that listen closed the one dropped before).
 */
public final class WakeHints {

	/**
	 * How much longer than its own timeout a pop may stay unanswered before it is given
	 * up.
	 */
	private static final long GRACE_NANOS = Duration.ofSeconds(2).toNanos();

	private final Connector connector;

	private final Function<StatefulConnection<String, String>, RedisListAsyncCommands<String, String>> lists;

	private final String key;

	private final double seconds;

	private final long staleAfterNanos;

	private final LongSupplier nanoTime;

	private @Nullable StatefulConnection<String, String> connection;

	/** The connect followed, while there is no connection. */
	private @Nullable CompletableFuture<StatefulConnection<String, String>> connecting;

	private long connectStartedNanos;

	private @Nullable RedisFuture<KeyValue<String, String>> pending;

	/**
	 * A connection whose pop failed, to be closed by the next listen or close, off the
	 * event loop that failed it.
	 */
	private @Nullable StatefulConnection<String, String> dropped;

	/** A thread is sending a pop, outside the monitor. */
	private boolean sending;

	private long sentNanos;

	private boolean closed;

	/**
	 * @param block how long one pop waits at most
	 * @param nanoTime the monotonic clock ({@link System#nanoTime()} but in tests)
	 */
	WakeHints(Connector connector,
			Function<StatefulConnection<String, String>, RedisListAsyncCommands<String, String>> lists, String key,
			Duration block, LongSupplier nanoTime) {
		this.connector = connector;
		this.lists = lists;
		this.key = key;
		this.seconds = Math.max(0.001, block.toNanos() / 1e9);
		this.staleAfterNanos = block.toNanos() + GRACE_NANOS;
		this.nanoTime = nanoTime;
	}

	/**
	 * Makes sure a pop is waiting for a hint, or a connection for it is on its way; when
	 * the pop ends (a hint, its timeout, a failure), {@code onEnd} is called with whether
	 * it popped a hint. Never waits: a connection is opened on a connector thread, which
	 * sends the pop once connected. While Redis cannot be reached nothing listens, and
	 * the waiters poll until it can.
	 */
	public void listen(Consumer<Boolean> onEnd) {
		StatefulConnection<String, String> stale = null;
		StatefulConnection<String, String> popOn = null;
		CompletableFuture<StatefulConnection<String, String>> started = null;
		StatefulConnection<String, String> failed;
		synchronized (this) {
			failed = this.dropped;
			this.dropped = null;
		}
		if (failed != null) {
			failed.closeAsync();
		}
		synchronized (this) {
			if (this.closed || this.sending) {
				return;
			}
			long now = this.nanoTime.getAsLong();
			if (this.pending != null && !this.pending.isDone()) {
				if (now - this.sentNanos < this.staleAfterNanos) {
					return;
				}
				// Unanswered for too long (a connection that went away under it): start
				// over.
				stale = this.connection;
				this.connection = null;
			}
			this.pending = null;
			if (this.connection != null) {
				popOn = this.connection;
				this.sending = true;
				this.sentNanos = now;
			}
			else if (this.connecting == null || now - this.connectStartedNanos >= this.connector.bound().toNanos()) {
				started = this.connector.connect();
				this.connecting = started;
				this.connectStartedNanos = now;
			}
		}
		if (stale != null) {
			stale.closeAsync();
		}
		if (popOn != null) {
			pop(popOn, onEnd);
		}
		if (started != null) {
			CompletableFuture<StatefulConnection<String, String>> connect = started;
			connect.whenComplete((opened, failure) -> connected(connect, opened, onEnd));
		}
	}

	/**
	 * A connect ended: its connection is kept if it is the connect followed, and the pop
	 * is sent (on the connector's thread); otherwise it is closed.
	 */
	private void connected(CompletableFuture<StatefulConnection<String, String>> connect,
			@Nullable StatefulConnection<String, String> opened, Consumer<Boolean> onEnd) {
		boolean kept;
		synchronized (this) {
			boolean followed = this.connecting == connect;
			if (followed) {
				this.connecting = null;
			}
			kept = followed && opened != null && !this.closed && this.connection == null;
			if (kept) {
				this.connection = opened;
			}
		}
		if (kept) {
			listen(onEnd);
		}
		else if (opened != null) {
			opened.closeAsync();
		}
	}

	private void pop(StatefulConnection<String, String> on, Consumer<Boolean> onEnd) {
		RedisFuture<KeyValue<String, String>> pop;
		try {
			pop = this.lists.apply(on).blpop(this.seconds, this.key);
		}
		catch (RuntimeException ex) {
			// Redis cannot be reached: the waiters poll until it can.
			synchronized (this) {
				this.sending = false;
			}
			drop(on);
			return;
		}
		synchronized (this) {
			this.sending = false;
			if (this.connection == on) {
				this.pending = pop;
			}
		}
		pop.whenComplete((popped, failure) -> {
			if (failure != null) {
				drop(on);
			}
			onEnd.accept(failure == null && popped != null && popped.hasValue());
		});
	}

	/**
	 * Stops using a connection that failed; the next listen closes it and opens another.
	 * Called on the event loop that completed the failed pop, or by the sender.
	 */
	private void drop(StatefulConnection<String, String> failed) {
		synchronized (this) {
			if (this.connection != failed) {
				return;
			}
			this.connection = null;
			this.pending = null;
			this.dropped = failed;
		}
	}

	/** Ends the pop in progress; no pop starts after. */
	public void close() {
		StatefulConnection<String, String> open;
		StatefulConnection<String, String> failed;
		synchronized (this) {
			this.closed = true;
			open = this.connection;
			failed = this.dropped;
			this.connection = null;
			this.pending = null;
			this.dropped = null;
		}
		if (open != null) {
			open.closeAsync();
		}
		if (failed != null) {
			failed.closeAsync();
		}
	}

}
