package io.github.workqueue.redis.internal;

import java.lang.System.Logger.Level;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * Logs an outage of Redis once when it starts and once when it ends, however many threads
 * keep retrying meanwhile. Thread-safe.
 */
final class OutageLog {

	private static final System.Logger logger = System.getLogger(io.github.workqueue.redis.RedisQueue.class.getName());

	private final String queue;

	private final AtomicBoolean down = new AtomicBoolean();

	OutageLog(String queue) {
		this.queue = queue;
	}

	void failed(RuntimeException ex) {
		if (this.down.compareAndSet(false, true)) {
			logger.log(Level.WARNING, "workqueue '" + this.queue + "': Redis cannot be reached (" + ex
					+ "); retrying with backoff until it can");
		}
	}

	void succeeded() {
		if (this.down.get() && this.down.compareAndSet(true, false)) {
			logger.log(Level.INFO, "workqueue '" + this.queue + "': Redis can be reached again");
		}
	}

}
