package io.github.workqueue.redis.internal.link;

import java.time.Duration;
import java.util.Objects;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Executor;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.Function;
import java.util.function.Supplier;

import io.lettuce.core.RedisCommandTimeoutException;
import io.lettuce.core.RedisException;
import org.jspecify.annotations.Nullable;

/**
 * A script on its way to Redis: its reply, the second try that mends a server that lacked
 * the library or the script, and the {@code WAIT} that follows it when replicas must
 * confirm its writes.
 *
 * <p>
 * <b>Concurrency.</b> Thread-safe: the reply is a future; the replicas' count is volatile
 * and written once.
 *
 * @param <R> the reply's type
 */
public final class SentScript<R> {

	private final CompletableFuture<R> reply;

	/** Mends a failed first try; {@code null} for a second try itself. */
	private final @Nullable Function<RedisException, R> secondTry;

	private final Duration timeout;

	/** Sends the {@code WAIT} that follows the reply; {@code null} if none does. */
	private final @Nullable Supplier<CompletableFuture<Long>> replicas;

	/** The replicas that confirmed, once the {@code WAIT} was answered; -1 before. */
	private volatile long confirmedReplicas = -1;

	/**
	 * A script on its way ({@link RedisLink#send} makes them; the batch state's tests
	 * make one that never lands).
	 * @param reply the reply to come
	 * @param secondTry how to mend a first try the server did not run, or {@code null}
	 * @param timeout how long the reply is waited for
	 * @param replicas sends the {@code WAIT} that follows the reply, or {@code null}
	 */
	public SentScript(CompletableFuture<R> reply, @Nullable Function<RedisException, R> secondTry, Duration timeout,
			@Nullable Supplier<CompletableFuture<Long>> replicas) {
		this.reply = reply;
		this.secondTry = secondTry;
		this.timeout = timeout;
		this.replicas = replicas;
	}

	/**
	 * Calls back once the reply came or the command failed, and, for a script followed by
	 * {@code WAIT}, once a reply that came was followed by WAIT's; on the thread that
	 * ended it (mostly a Lettuce event loop; the {@code WAIT} is sent by the supplier
	 * given, off that thread): the callback must neither block nor wait for a lock held
	 * across I/O.
	 */
	public void whenAnswered(Runnable callback) {
		Supplier<CompletableFuture<Long>> wait = this.replicas;
		if (wait == null) {
			this.reply.whenComplete((reply, failure) -> callback.run());
			return;
		}
		this.reply.whenComplete((reply, failure) -> {
			if (failure != null) {
				callback.run();
				return;
			}
			wait.get().whenComplete((confirmed, waitFailure) -> {
				this.confirmedReplicas = (waitFailure == null && confirmed != null) ? confirmed : -1;
				callback.run();
			});
		});
	}

	/**
	 * How many replicas confirmed the script's writes, once {@link #whenAnswered
	 * answered}: -1 if the wait failed or none was sent.
	 */
	public long confirmedReplicas() {
		return this.confirmedReplicas;
	}

	/** How long the reply may take: the connection's command timeout. */
	public Duration timeout() {
		return this.timeout;
	}

	/** Gives up waiting for the reply; a reply that comes later is ignored. */
	public void cancel() {
		this.reply.cancel(false);
	}

	/**
	 * Whether the reply came and failed because the server lacked the library or the
	 * script, or refused functions: a second try ({@link #secondTry(Executor)}) mends
	 * that.
	 */
	public boolean wantsSecondTry() {
		RedisException failure = failure();
		return this.secondTry != null && failure != null && ScriptFailures.wantSecondTry(failure);
	}

	/** The Redis failure the reply ended with, or {@code null}. */
	private @Nullable RedisException failure() {
		if (!this.reply.isCompletedExceptionally()) {
			return null;
		}
		try {
			this.reply.getNow(null);
			return null;
		}
		catch (CompletionException | CancellationException ex) {
			return (ex.getCause() instanceof RedisException failure) ? failure : null;
		}
	}

	/**
	 * Makes the second try on one of the executor's threads, so that the caller never
	 * waits for the library's load (which asks every master of a cluster). Only after
	 * {@link #wantsSecondTry()} said so.
	 * @return the second try on its way, whose timeout allows for the load and the call
	 */
	public SentScript<R> secondTry(Executor executor) {
		Function<RedisException, R> mend = Objects.requireNonNull(this.secondTry, "a second try's second try");
		RedisException failure = Objects.requireNonNull(failure(), "a first try that did not fail");
		return new SentScript<>(CompletableFuture.supplyAsync(() -> mend.apply(failure), executor), null,
				this.timeout.multipliedBy(3), this.replicas);
	}

	/**
	 * Waits, uninterruptibly, for the reply; loads the library or sends the script's text
	 * if the server lacked them.
	 * @throws RedisException if the script failed or no reply came in time
	 */
	public R reply() {
		try {
			return await(this.reply, this.timeout);
		}
		catch (RedisException ex) {
			if (this.secondTry == null) {
				throw ex;
			}
			return this.secondTry.apply(ex);
		}
	}

	/**
	 * Waits, uninterruptibly (the interrupt is kept), for a reply.
	 * @throws RedisException if it failed or did not come within the timeout
	 */
	static <R> R await(Future<R> reply, Duration timeout) {
		long deadline = System.nanoTime() + timeout.toNanos();
		boolean interrupted = false;
		try {
			while (true) {
				try {
					return reply.get(Math.max(0, deadline - System.nanoTime()), TimeUnit.NANOSECONDS);
				}
				catch (InterruptedException ex) {
					interrupted = true;
				}
				catch (ExecutionException ex) {
					throw (ex.getCause() instanceof RedisException redis) ? redis : new RedisException(ex.getCause());
				}
				catch (CancellationException ex) {
					// Lettuce cancels the commands of a connection it resets or that is
					// replaced while they wait: an outage like any other, not a bug.
					throw new RedisException("the request was cancelled: its connection to Redis was lost", ex);
				}
				catch (TimeoutException ex) {
					reply.cancel(false);
					throw new RedisCommandTimeoutException("Command timed out after " + timeout);
				}
			}
		}
		finally {
			if (interrupted) {
				Thread.currentThread().interrupt();
			}
		}
	}

}
