package io.github.workqueue.redis.internal;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ConcurrentHashMap;

import org.jspecify.annotations.Nullable;

/**
 * The leases this instance holds, per item, oldest first, each bound to the thread that
 * took the item.
 *
 * <p>
 * An item normally has one: Redis grants an item to one lease at a time. It has two when
 * a lease expired while this instance was still processing the item (it stalled, or lost
 * Redis for a whole lease) and the item was then granted to this instance again. A
 * thread's {@code done(item)} and {@code lease(item)} resolve to that thread's own lease,
 * so that a stale processing's done is rejected by Redis's fencing and never ends the
 * live processing's lease. A thread that holds no lease on the item (the item was handed
 * to it) gets the item's only lease, or, with several, the oldest for done and the newest
 * for lease.
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
	 * Removes and returns the lease a {@code done(item)} of the thread ends: its own
	 * oldest on the item, else the item's oldest.
	 * @return the lease, or {@code null} if none is held
	 */
	@Nullable HeldLease removeFor(T item, Thread caller) {
		HeldLease[] chosen = new HeldLease[1];
		this.byItem.computeIfPresent(item, (key, leases) -> {
			chosen[0] = firstOf(leases, caller, false);
			List<HeldLease> rest = new ArrayList<>(leases);
			rest.remove(chosen[0]);
			return rest.isEmpty() ? null : List.copyOf(rest);
		});
		if (chosen[0] != null) {
			chosen[0].ended = true;
		}
		return chosen[0];
	}

	/**
	 * Returns the lease a {@code lease(item)} of the thread sees: its own newest on the
	 * item, else the item's newest.
	 * @return the lease, or {@code null} if none is held
	 */
	@Nullable HeldLease findFor(T item, Thread caller) {
		List<HeldLease> leases = this.byItem.get(item);
		return (leases != null) ? firstOf(leases, caller, true) : null;
	}

	/**
	 * The caller's first (or last) lease in the list, else the list's first (or last).
	 */
	private static HeldLease firstOf(List<HeldLease> leases, Thread caller, boolean newest) {
		HeldLease own = null;
		for (HeldLease lease : leases) {
			if (lease.taker == caller && (own == null || newest)) {
				own = lease;
			}
		}
		if (own != null) {
			return own;
		}
		return newest ? leases.get(leases.size() - 1) : leases.get(0);
	}

	boolean isEmpty() {
		return this.byItem.isEmpty();
	}

	/** How many leases are held now. */
	int count() {
		return this.byItem.values().stream().mapToInt(List::size).sum();
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
