package io.github.workqueue.kubernetes;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * Every reconcile of a test with several replicas in one JVM, as (key, replica, start,
 * end) on one monotonic clock, so that reconciles of one key on two replicas at once can
 * be counted afterwards. Each test clears it first.
 */
final class Ledger {

	/** One reconcile; {@code end} is {@link Long#MAX_VALUE} while it runs. */
	record Entry(ObjectKey key, String replica, long start, long end) {

		boolean overlaps(Entry other) {
			return this.key.equals(other.key) && !this.replica.equals(other.replica) && this.start < other.end
					&& other.start < this.end;
		}

	}

	private static final List<Entry> entries = new CopyOnWriteArrayList<>();

	private static final java.util.Map<String, java.util.concurrent.atomic.AtomicInteger> running = new java.util.concurrent.ConcurrentHashMap<>();

	private Ledger() {
	}

	/**
	 * How old each replica's last accepted Lease renewal was when it started a reconcile,
	 * in nanoseconds (with leader election).
	 */
	private static final List<Long> renewalAgesAtStart = new CopyOnWriteArrayList<>();

	static void clear() {
		entries.clear();
		running.clear();
		renewalAgesAtStart.clear();
	}

	/**
	 * A reconcile starts.
	 * @param replica the replica
	 * @param start when ({@link System#nanoTime()})
	 * @param lastRenewal when the replica's last accepted Lease renewal began, or
	 * {@link Long#MIN_VALUE} without leader election
	 */
	static void started(String replica, long start, long lastRenewal) {
		running.computeIfAbsent(replica, (r) -> new java.util.concurrent.atomic.AtomicInteger()).incrementAndGet();
		if (lastRenewal != Long.MIN_VALUE) {
			renewalAgesAtStart.add(start - lastRenewal);
		}
	}

	/** The oldest a replica's last accepted renewal was when it started a reconcile. */
	static long oldestRenewalAtStart() {
		return renewalAgesAtStart.stream().mapToLong(Long::longValue).max().orElse(0);
	}

	static void add(ObjectKey key, String replica, long start, long end) {
		entries.add(new Entry(key, replica, start, end));
		running.get(replica).decrementAndGet();
	}

	/** How many reconciles of the replica run now. */
	static int running(String replica) {
		java.util.concurrent.atomic.AtomicInteger count = running.get(replica);
		return (count != null) ? count.get() : 0;
	}

	static List<Entry> entries() {
		return List.copyOf(entries);
	}

	static long count(String replica) {
		return entries.stream().filter((entry) -> entry.replica().equals(replica)).count();
	}

	static long countSince(String replica, long since) {
		return entries.stream().filter((entry) -> entry.replica().equals(replica) && entry.start() >= since).count();
	}

	/** Each pair of reconciles of one key on two replicas that ran at the same time. */
	static List<String> overlaps() {
		List<Entry> all = entries();
		List<String> overlaps = new ArrayList<>();
		for (int i = 0; i < all.size(); i++) {
			for (int j = i + 1; j < all.size(); j++) {
				if (all.get(i).overlaps(all.get(j))) {
					overlaps.add(all.get(i) + " and " + all.get(j));
				}
			}
		}
		return overlaps;
	}

}
