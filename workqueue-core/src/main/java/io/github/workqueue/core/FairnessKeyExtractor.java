package io.github.workqueue.core;

import java.util.List;

import org.jspecify.annotations.Nullable;

/**
 * Gives an item's fairness keys, most significant first (for example its tenant, then its
 * namespace). Among ready items of one priority, a queue with fairness serves the keys
 * round-robin, level by level, so that a key with many ready items delays another key's
 * next item by at most one item per active key.
 *
 * <p>
 * Called on adds (every add but a duplicate of a queued item), under the queue's lock
 * (memory) or before the add's round trip (Redis); the keys of the add that made the item
 * present are the ones kept. It must be quick, must not call back into a queue, and must
 * give the same keys for equal items. Items may have different numbers of keys: the items
 * whose keys end at a level form one group of their own there, served in turn beside that
 * level's keys (an empty list: a group at the top level; {@code [tenant]} beside the
 * namespaces of that tenant's items that have {@code [tenant, namespace]}).
 *
 * @param <T> the item type
 */
@FunctionalInterface
public interface FairnessKeyExtractor<T> {

	/**
	 * Returns the item's fairness keys.
	 * @param item the item
	 * @return its keys, most significant first; not null, no null element
	 */
	List<String> keysOf(T item);

	/**
	 * Asks an extractor for an item's keys as the queues do: none without an extractor,
	 * and the answer copied, an answer of null being an error that names the queue.
	 * @param <T> the item type
	 * @param extractor the queue's extractor, or null when it has no fairness
	 * @param item the item
	 * @param queueName the queue's name, for the error
	 * @return the keys, immutable
	 */
	static <T> List<String> keysOf(@Nullable FairnessKeyExtractor<? super T> extractor, T item, String queueName) {
		if (extractor == null) {
			return List.of();
		}
		List<String> keys = extractor.keysOf(item);
		if (keys == null) {
			throw nullKeys(item, queueName);
		}
		return List.copyOf(keys);
	}

	private static IllegalStateException nullKeys(Object item, String queueName) {
		return new IllegalStateException("fairness key extractor of workqueue '" + queueName + "' returned null for "
				+ item + "; return an empty list for no key");
	}

}
