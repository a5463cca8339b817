package io.github.workqueue.spring.internal;

import java.util.concurrent.ConcurrentHashMap;

import io.github.workqueue.core.FailedAttempts;

/**
 * Failed attempts counted in this process's memory, for a queue that does not count them
 * itself: an in-memory queue has no other process to share the count with. Thread-safe.
 */
final class LocalFailedAttempts implements FailedAttempts<Object> {

	private final ConcurrentHashMap<Object, Integer> counts = new ConcurrentHashMap<>();

	@Override
	public int recordFailedAttempt(Object item) {
		return this.counts.merge(item, 1, Integer::sum);
	}

	@Override
	public void clearFailedAttempts(Object item) {
		this.counts.remove(item);
	}

}
