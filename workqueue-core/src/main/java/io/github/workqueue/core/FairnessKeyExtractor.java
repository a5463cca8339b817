package io.github.workqueue.core;

import java.util.List;

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
 * give the same keys for equal items. Items may have different numbers of keys; an empty
 * list puts the item in a group of its own at the top level.
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

}
