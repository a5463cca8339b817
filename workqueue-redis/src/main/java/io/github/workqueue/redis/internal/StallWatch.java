package io.github.workqueue.redis.internal;

import java.lang.System.Logger.Level;
import java.time.Duration;
import java.util.Optional;

import io.github.workqueue.redis.RedisQueue;
import org.jspecify.annotations.Nullable;

import io.github.workqueue.redis.internal.link.RedisLink;

import io.github.workqueue.redis.internal.batch.Batcher;

/**
 * Watches one queue's batch sender on this instance. The sender never waits for Redis but
 * within a bound, so a sender busy for longer than {@link #thresholdNanos()} while no
 * connect is under way is stuck: requests wait and nothing moves. Then one ERROR with the
 * sender's stack, one stall counted, and {@link #stalledFor()} says so (the health check
 * is DOWN) until the sender moves again, which is logged at INFO.
 *
 * <p>
 * Thread-safe: {@link #check()} is called by one thread (the lease renewer's, every
 * second); {@link #stalledFor()} by any.
 */
final class StallWatch {

	private static final System.Logger logger = System.getLogger(RedisQueue.class.getName());

	private static final Duration SHORTEST = Duration.ofSeconds(5);

	private final String name;

	private final Batcher batcher;

	private final RedisLink link;

	private final @Nullable RedisQueueMetrics metrics;

	/**
	 * A stall was reported and has not ended yet. Written by the checking thread only.
	 */
	private boolean reported;

	StallWatch(String name, Batcher batcher, RedisLink link, @Nullable RedisQueueMetrics metrics) {
		this.name = name;
		this.batcher = batcher;
		this.link = link;
		this.metrics = metrics;
	}

	/**
	 * How long the sender may stay busy: twice the command timeout (a reply, and a second
	 * try after a server that lacked the scripts) and a second, at least
	 * {@link #SHORTEST}.
	 */
	long thresholdNanos() {
		long bound = this.link.replyTimeout().multipliedBy(2).plusSeconds(1).toNanos();
		return Math.max(SHORTEST.toNanos(), bound);
	}

	/** How long the sender has been stuck, or empty if it is not. */
	Optional<Duration> stalledFor() {
		if (this.link.isConnecting()) {
			// A connect has its own bound, and its failure is an outage, logged as such.
			return Optional.empty();
		}
		return this.batcher.stalledFor(thresholdNanos());
	}

	/** Reports a stall once when it starts and once when it ends. */
	void check() {
		Optional<Duration> stalled = stalledFor();
		if (stalled.isPresent() && !this.reported) {
			this.reported = true;
			if (this.metrics != null) {
				this.metrics.stalled();
			}
			Throwable where = new Throwable("the sender's stack");
			where.setStackTrace(this.batcher.senderStack());
			logger.log(Level.ERROR,
					"workqueue '" + this.name + "': the thread that sends this instance's requests to "
							+ "Redis has made no progress for " + stalled.get().toMillis() + " ms while requests wait; "
							+ "adds, gets and dones of this queue wait or fail until it moves",
					where);
		}
		else if (stalled.isEmpty() && this.reported) {
			this.reported = false;
			logger.log(Level.INFO,
					"workqueue '" + this.name + "': the thread that sends requests to Redis moves again");
		}
	}

}
