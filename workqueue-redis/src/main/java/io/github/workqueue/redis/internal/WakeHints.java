package io.github.workqueue.redis.internal;

import java.time.Duration;
import java.util.function.Consumer;
import java.util.function.Function;
import java.util.function.Supplier;

import io.lettuce.core.KeyValue;
import io.lettuce.core.RedisFuture;
import io.lettuce.core.api.StatefulConnection;
import io.lettuce.core.api.async.RedisListAsyncCommands;
import org.jspecify.annotations.Nullable;

/**
 * Listens for one queue's wake-up hints for one instance: at most one {@code BLPOP} at a
 * time, on a connection of its own, so that however many of the instance's threads wait
 * for items, one hint wakes one instance. A hint is never state: whoever is woken runs
 * the batch script to see what is there. Thread-safe: the methods are synchronized.
 */
final class WakeHints {

	/**
	 * How much longer than its own timeout a pop may stay unanswered before it is given
	 * up.
	 */
	private static final long GRACE_NANOS = Duration.ofSeconds(2).toNanos();

	private final Supplier<StatefulConnection<String, String>> connector;

	private final Function<StatefulConnection<String, String>, RedisListAsyncCommands<String, String>> lists;

	private final String key;

	private final double seconds;

	private final long staleAfterNanos;

	private @Nullable StatefulConnection<String, String> connection;

	private @Nullable RedisFuture<KeyValue<String, String>> pending;

	private long sentNanos;

	private boolean closed;

	/**
	 * @param block how long one pop waits at most
	 */
	WakeHints(Supplier<StatefulConnection<String, String>> connector,
			Function<StatefulConnection<String, String>, RedisListAsyncCommands<String, String>> lists, String key,
			Duration block) {
		this.connector = connector;
		this.lists = lists;
		this.key = key;
		this.seconds = Math.max(0.001, block.toNanos() / 1e9);
		this.staleAfterNanos = block.toNanos() + GRACE_NANOS;
	}

	/**
	 * Makes sure a pop is waiting for a hint; when it ends (a hint, its timeout, a
	 * failure), {@code onEnd} is called with whether it popped a hint.
	 */
	synchronized void listen(Consumer<Boolean> onEnd) {
		if (this.closed) {
			return;
		}
		if (this.pending != null && !this.pending.isDone()) {
			if (System.nanoTime() - this.sentNanos < this.staleAfterNanos) {
				return;
			}
			// Unanswered for too long (a connection that went away under it): start over.
			dropConnection();
		}
		RedisFuture<KeyValue<String, String>> pop;
		try {
			if (this.connection == null) {
				this.connection = this.connector.get();
			}
			pop = this.lists.apply(this.connection).blpop(this.seconds, this.key);
		}
		catch (RuntimeException ex) {
			// Redis cannot be reached: the waiters poll until it can.
			dropConnection();
			return;
		}
		this.pending = pop;
		this.sentNanos = System.nanoTime();
		pop.whenComplete((popped, failure) -> {
			if (failure != null) {
				dropConnectionAfter(pop);
			}
			onEnd.accept(failure == null && popped != null && popped.hasValue());
		});
	}

	private synchronized void dropConnectionAfter(RedisFuture<?> pop) {
		if (this.pending == pop) {
			dropConnection();
		}
	}

	private void dropConnection() {
		if (this.connection != null) {
			this.connection.closeAsync();
			this.connection = null;
		}
		this.pending = null;
	}

	/** Ends the pop in progress; no pop starts after. */
	synchronized void close() {
		this.closed = true;
		dropConnection();
	}

}
