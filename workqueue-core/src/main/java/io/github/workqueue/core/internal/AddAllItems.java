package io.github.workqueue.core.internal;

import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Objects;

/**
 * The items of an {@code addAll} call, checked before any is added: for the queues of
 * every module. Stateless.
 */
public final class AddAllItems {

	private AddAllItems() {
	}

	/**
	 * The items, in order, after checking that none is null.
	 * @param <T> the item type
	 * @param items the items
	 * @return a copy of the items
	 * @throws NullPointerException naming the position of the first null item
	 */
	public static <T> List<T> checked(Collection<? extends T> items) {
		Objects.requireNonNull(items, "items");
		List<T> copy = new ArrayList<>(items.size());
		for (T item : items) {
			if (item == null) {
				throw new NullPointerException("addAll: the item at position " + copy.size() + " is null");
			}
			copy.add(item);
		}
		return copy;
	}

}
