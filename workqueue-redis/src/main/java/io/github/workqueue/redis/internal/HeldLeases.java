package io.github.workqueue.redis.internal;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ConcurrentHashMap;

import org.jspecify.annotations.Nullable;

/**
 * The leases this instance holds, per item, oldest first.
 *
 * <p>
 * An item normally has one: Redis grants an item to one lease at a time. It has two when
 * a lease expired while this instance was still processing the item (it stalled, or lost
 * Redis for a whole lease) and the item was then granted to this instance again.
 * {@code done(item)} then ends the oldest lease: the stale worker's done is rejected by
 * Redis's fencing instead of ending the live lease, and the live lease ends with the last
 * done, once both processings finished, so that no {@code done} ever ends a lease whose
 * processing is still running alone.
 *
 * <p>
 * <b>Concurrency.</b> Thread-safe: each item's list is replaced atomically by
 * {@link ConcurrentHashMap#compute}; lists are never modified once published.
 *
 * @param <T> the type of the items
 */
final class HeldLeases<T> {

	private final ConcurrentHashMap<T, List<HeldLease>> byItem = new ConcurrentHashMap<>();

	void add(T item, HeldLease lease) {
		this.byItem.compute(item, (key, leases) -> {
			List<HeldLease> more = (leases != null) ? new ArrayList<>(leases) : new ArrayList<>(1);
			more.add(lease);
			return List.copyOf(more);
		});
	}

	/**
	 * Removes one lease if it is still held.
	 * @return whether it was
	 */
	boolean remove(T item, HeldLease lease) {
		boolean[] removed = new boolean[1];
		this.byItem.computeIfPresent(item, (key, leases) -> {
			List<HeldLease> rest = new ArrayList<>(leases);
			removed[0] = rest.remove(lease);
			return rest.isEmpty() ? null : List.copyOf(rest);
		});
		if (removed[0]) {
			lease.ended = true;
		}
		return removed[0];
	}

	/**
	 * Removes and returns the item's oldest lease.
	 * @return the lease, or {@code null} if none is held
	 */
	@Nullable HeldLease removeOldest(T item) {
		HeldLease[] oldest = new HeldLease[1];
		this.byItem.computeIfPresent(item, (key, leases) -> {
			oldest[0] = leases.get(0);
			return (leases.size() == 1) ? null : List.copyOf(leases.subList(1, leases.size()));
		});
		if (oldest[0] != null) {
			oldest[0].ended = true;
		}
		return oldest[0];
	}

	/**
	 * Returns the item's newest lease, the live one if any is.
	 * @return the lease, or {@code null} if none is held
	 */
	@Nullable HeldLease newest(T item) {
		List<HeldLease> leases = this.byItem.get(item);
		return (leases != null) ? leases.get(leases.size() - 1) : null;
	}

	boolean isEmpty() {
		return this.byItem.isEmpty();
	}

	/**
	 * Returns every lease held now.
	 * @return the leases, in no particular order
	 */
	List<HeldLease> all() {
		List<HeldLease> all = new ArrayList<>();
		this.byItem.values().forEach(all::addAll);
		return all;
	}

	/**
	 * Removes and returns every lease held now.
	 * @return the leases
	 */
	List<HeldLease> removeAll() {
		List<HeldLease> all = new ArrayList<>();
		for (T item : this.byItem.keySet()) {
			List<HeldLease> leases = this.byItem.remove(item);
			if (leases != null) {
				leases.forEach((lease) -> lease.ended = true);
				all.addAll(leases);
			}
		}
		return all;
	}

}
