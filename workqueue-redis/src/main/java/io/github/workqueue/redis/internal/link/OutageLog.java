package io.github.workqueue.redis.internal.link;

import java.lang.System.Logger.Level;
import java.time.Instant;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.BooleanSupplier;

import org.jspecify.annotations.Nullable;

/**
 * Logs an outage of Redis once when it starts and once when it ends, however many threads
 * keep retrying meanwhile, and says since when it lasts. A failure after the application
 * closed the connection is no outage and is not logged. Thread-safe.
 */
public final class OutageLog {

	private static final System.Logger logger = System.getLogger(io.github.workqueue.redis.RedisQueue.class.getName());

	private final String queue;

	private final BooleanSupplier closed;

	private final AtomicBoolean down = new AtomicBoolean();

	/** When the outage under way began; {@code null} while Redis answers. */
	private volatile @Nullable Instant since;

	/**
	 * @param queue the queue's name
	 * @param closed whether the connection was closed
	 */
	public OutageLog(String queue, BooleanSupplier closed) {
		this.queue = queue;
		this.closed = closed;
	}

	public void failed(RuntimeException ex) {
		if (!this.closed.getAsBoolean() && this.down.compareAndSet(false, true)) {
			this.since = Instant.now();
			logger.log(Level.WARNING, "workqueue '" + this.queue + "': Redis cannot be reached (" + ex
					+ "); retrying with backoff until it can");
		}
	}

	/** When the outage under way began, or empty while Redis answers. */
	public Optional<Instant> since() {
		return Optional.ofNullable(this.since);
	}

	public void succeeded() {
		if (this.down.get() && this.down.compareAndSet(true, false)) {
			this.since = null;
			logger.log(Level.INFO, "workqueue '" + this.queue + "': Redis can be reached again");
		}
	}

}
