package io.github.workqueue.core;

import java.util.Objects;

/**
 * An item taken from a queue with the priority it was queued at, as
 * {@link RateLimitingQueue#getWithPriority()} returns it.
 *
 * @param <T> the item type
 * @param item the item
 * @param priority its priority when it was taken
 */
public record PrioritizedItem<T>(T item, int priority) {

	public PrioritizedItem {
		Objects.requireNonNull(item, "item");
	}

}
