package io.github.workqueue.core.lincheck;

import java.util.ArrayDeque;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;

import org.jspecify.annotations.Nullable;

/**
 * The sequential specification of DESIGN.md's contract, written from the contract and
 * nothing else: a FIFO, the dirty and processing sets, waiting entries (earliest ready
 * time wins, add supersedes, ready-time then insertion order), shutdown, and an
 * exponential per-item limiter with base 1 ns and max 2 ns. Time is a counter moved by
 * {@link #step()}; an item due by then is added before anything else happens.
 *
 * <p>
 * Lincheck compares every concurrent history of the real queues with the histories of
 * this class; the methods mirror the operations of the tests, by name and parameters.
 */
public class QueueModel {

	private final ArrayDeque<Integer> fifo = new ArrayDeque<>();

	private final Set<Integer> dirty = new HashSet<>();

	private final Set<Integer> processing = new HashSet<>();

	/** Item to {ready time, insertion sequence}. */
	private final Map<Integer, long[]> waiting = new HashMap<>();

	private final Map<Integer, Integer> failures = new HashMap<>();

	private long now;

	private long sequence;

	private boolean shuttingDown;

	public void add(int key) {
		promote();
		addNow(key);
	}

	public @Nullable Integer get() {
		promote();
		Integer item = this.fifo.poll();
		if (item != null) {
			this.dirty.remove(item);
			this.processing.add(item);
		}
		return item;
	}

	public void done(int key) {
		promote();
		if (this.processing.remove(key) && this.dirty.contains(key)) {
			this.fifo.add(key);
		}
	}

	public boolean remove(int key) {
		promote();
		boolean removed = this.waiting.remove(key) != null;
		if (this.dirty.remove(key)) {
			removed = true;
			if (!this.processing.contains(key)) {
				this.fifo.remove(key);
			}
		}
		return removed;
	}

	public int len() {
		promote();
		return this.fifo.size();
	}

	public void shutDown() {
		promote();
		this.shuttingDown = true;
		this.waiting.clear();
	}

	public boolean isShuttingDown() {
		return this.shuttingDown;
	}

	public void addAfter(int key, int delay) {
		if (this.shuttingDown) {
			return;
		}
		promote();
		if (delay <= 0) {
			addNow(key);
			return;
		}
		long readyAt = this.now + delay;
		long[] entry = this.waiting.get(key);
		if (entry == null) {
			this.waiting.put(key, new long[] { readyAt, this.sequence++ });
		}
		else {
			entry[0] = Math.min(entry[0], readyAt);
		}
	}

	public int waitingLen() {
		promote();
		return this.waiting.size();
	}

	public void step() {
		this.now++;
	}

	public void addRateLimited(int key) {
		int failed = this.failures.merge(key, 1, Integer::sum);
		addAfter(key, (failed == 1) ? 1 : 2);
	}

	public void forget(int key) {
		this.failures.remove(key);
	}

	public int numRequeues(int key) {
		return this.failures.getOrDefault(key, 0);
	}

	private void addNow(int key) {
		if (this.shuttingDown) {
			return;
		}
		this.waiting.remove(key);
		if (this.dirty.add(key) && !this.processing.contains(key)) {
			this.fifo.add(key);
		}
	}

	private void promote() {
		for (;;) {
			Integer first = null;
			long[] firstEntry = null;
			for (Map.Entry<Integer, long[]> candidate : this.waiting.entrySet()) {
				long[] entry = candidate.getValue();
				if (entry[0] <= this.now && (firstEntry == null || entry[0] < firstEntry[0]
						|| (entry[0] == firstEntry[0] && entry[1] < firstEntry[1]))) {
					first = candidate.getKey();
					firstEntry = entry;
				}
			}
			if (first == null) {
				return;
			}
			addNow(first);
		}
	}

}
