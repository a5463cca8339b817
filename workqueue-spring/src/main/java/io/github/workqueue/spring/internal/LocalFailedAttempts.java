package io.github.workqueue.spring.internal;

import java.util.concurrent.ConcurrentHashMap;

import io.github.workqueue.core.FailedAttempts;
import io.github.workqueue.core.RateLimitingQueue;

/**
 * Failed attempts counted in this process's memory, for a queue that does not count them
 * itself: an in-memory queue has no other process to share the count with. Thread-safe.
 */
final class LocalFailedAttempts implements FailedAttempts<Object> {

	private final RateLimitingQueue<Object> queue;

	private final ConcurrentHashMap<Object, Integer> counts = new ConcurrentHashMap<>();

	LocalFailedAttempts(RateLimitingQueue<Object> queue) {
		this.queue = queue;
	}

	@Override
	public int recordFailedAttempt(Object item) {
		return this.counts.merge(item, 1, Integer::sum);
	}

	@Override
	public int failedAttempts(Object item) {
		return this.counts.getOrDefault(item, 0);
	}

	@Override
	public void clearFailedAttempts(Object item, boolean forget) {
		this.counts.remove(item);
		if (forget) {
			this.queue.forget(item);
		}
	}

}
