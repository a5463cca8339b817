package io.github.workqueue.core.lincheck;

import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

import org.jspecify.annotations.Nullable;

/**
 * The sequential specification of DESIGN.md's "Priority and fairness", written from the
 * contract and nothing else, for a queue with priorities and no fairness;
 * {@link FairQueueModel} gives the items fairness keys.
 *
 * <p>
 * An item is present while it is dirty, processing or waiting, and has one priority: the
 * highest of its adds since it became present (so a requeue keeps it). Ready items
 * (dirty, not processing) leave by priority, then by fairness, then in the order they
 * became ready (a raise keeps that moment). Fairness is written as stamps rather than
 * queues: every active node of a priority's key tree (a priority, then one key per level,
 * then an end node below which the items sit) carries the moment it last went to the back
 * of its level, when it became active or was served; {@code get} descends, at each level,
 * to the active child with the smallest stamp. Time is a counter moved by
 * {@link #step()}; an item due by then is added before anything else happens.
 */
public class PriorityQueueModel {

	/** The end of every path of keys; not a key the tests use. */
	private static final String END = "<end>";

	private static final class Item {

		int priority;

		boolean dirty;

		boolean processing;

		/** Ready time and insertion sequence of its waiting entry, null when none. */
		long @Nullable [] waiting;

		/** When it became ready, while it is ready. */
		long readySequence;

	}

	private final Map<Integer, Item> items = new HashMap<>();

	/** Stamps of the active nodes, by path: priority, keys..., END. */
	private final Map<List<Object>, Long> stamps = new HashMap<>();

	private long now;

	private long sequence;

	private long stampClock;

	private boolean shuttingDown;

	/**
	 * The item's fairness keys.
	 * @param key the item
	 * @return its keys; none without fairness
	 */
	List<String> keysOf(int key) {
		return List.of();
	}

	public void add(int key) {
		addWithPriority(key, 0);
	}

	public void addWithPriority(int key, int priority) {
		if (this.shuttingDown) {
			return;
		}
		promote();
		addNow(key, priority);
	}

	public void addAfterWithPriority(int key, int delay, int priority) {
		if (this.shuttingDown) {
			return;
		}
		promote();
		if (delay <= 0) {
			addNow(key, priority);
			return;
		}
		Item item = present(key, priority);
		long readyAt = this.now + delay;
		if (item.waiting == null) {
			item.waiting = new long[] { readyAt, this.sequence++ };
		}
		else {
			item.waiting[0] = Math.min(item.waiting[0], readyAt);
		}
	}

	public @Nullable Integer get() {
		String taken = getWithPriority();
		return (taken != null) ? Integer.valueOf(taken.substring(0, taken.indexOf('@'))) : null;
	}

	public @Nullable String getWithPriority() {
		promote();
		Integer best = null;
		for (Map.Entry<Integer, Item> candidate : this.items.entrySet()) {
			if (isReady(candidate.getValue())
					&& (best == null || candidate.getValue().priority > this.items.get(best).priority)) {
				best = candidate.getKey();
			}
		}
		if (best == null) {
			return null;
		}
		int priority = this.items.get(best).priority;
		List<Object> node = List.of(priority);
		List<List<Object>> served = new ArrayList<>();
		List<Integer> candidates = readyUnder(node);
		while (!node.get(node.size() - 1).equals(END)) {
			List<Object> next = null;
			for (int candidate : candidates) {
				List<Object> child = pathOf(candidate, priority).subList(0, node.size() + 1);
				if (next == null || this.stamps.get(child) < this.stamps.get(next)) {
					next = child;
				}
			}
			node = next;
			served.add(node);
			candidates = readyUnder(node);
		}
		int first = candidates.get(0);
		for (int candidate : candidates) {
			if (this.items.get(candidate).readySequence < this.items.get(first).readySequence) {
				first = candidate;
			}
		}
		Item item = this.items.get(first);
		item.dirty = false;
		item.processing = true;
		for (List<Object> path : served) {
			if (readyUnder(path).isEmpty()) {
				this.stamps.remove(path);
			}
			else {
				this.stamps.put(path, this.stampClock++);
			}
		}
		return first + "@" + priority;
	}

	public void done(int key) {
		promote();
		Item item = this.items.get(key);
		if (item == null || !item.processing) {
			return;
		}
		item.processing = false;
		if (item.dirty) {
			becomeReady(key);
		}
		forgetIfIdle(key);
	}

	public boolean remove(int key) {
		promote();
		Item item = this.items.get(key);
		if (item == null) {
			return false;
		}
		boolean removed = item.dirty || item.waiting != null;
		if (isReady(item)) {
			leaveReady(key);
		}
		item.dirty = false;
		item.waiting = null;
		forgetIfIdle(key);
		return removed;
	}

	public int len() {
		promote();
		int ready = 0;
		for (Item item : this.items.values()) {
			if (isReady(item)) {
				ready++;
			}
		}
		return ready;
	}

	public String lenByPriority() {
		promote();
		TreeMap<Integer, Integer> sizes = new TreeMap<>(Collections.reverseOrder());
		for (Item item : this.items.values()) {
			if (isReady(item)) {
				sizes.merge(item.priority, 1, Integer::sum);
			}
		}
		return sizes.toString();
	}

	public void shutDown() {
		promote();
		this.shuttingDown = true;
		for (Integer key : new ArrayList<>(this.items.keySet())) {
			this.items.get(key).waiting = null;
			forgetIfIdle(key);
		}
	}

	public boolean isShuttingDown() {
		return this.shuttingDown;
	}

	public void step() {
		this.now++;
	}

	private Item present(int key, int priority) {
		Item item = this.items.get(key);
		if (item == null) {
			item = new Item();
			item.priority = priority;
			this.items.put(key, item);
		}
		else if (priority > item.priority) {
			boolean ready = isReady(item);
			if (ready) {
				leaveReady(key);
			}
			item.priority = priority;
			if (ready) {
				enterReady(key);
			}
		}
		return item;
	}

	private void addNow(int key, int priority) {
		Item item = present(key, priority);
		item.waiting = null;
		if (!item.dirty) {
			item.dirty = true;
			if (!item.processing) {
				becomeReady(key);
			}
		}
	}

	private void becomeReady(int key) {
		this.items.get(key).readySequence = this.sequence++;
		enterReady(key);
	}

	/** Gives a stamp to every node of the item's path that was not active. */
	private void enterReady(int key) {
		List<Object> path = pathOf(key, this.items.get(key).priority);
		for (int depth = 2; depth <= path.size(); depth++) {
			this.stamps.putIfAbsent(path.subList(0, depth), this.stampClock++);
		}
	}

	/** Called while the item is still ready: drops the stamps of nodes it alone kept. */
	private void leaveReady(int key) {
		List<Object> path = pathOf(key, this.items.get(key).priority);
		for (int depth = 2; depth <= path.size(); depth++) {
			List<Object> node = path.subList(0, depth);
			if (readyUnder(node).size() == 1) {
				this.stamps.remove(node);
			}
		}
	}

	private List<Object> pathOf(int key, int priority) {
		List<Object> path = new ArrayList<>();
		path.add(priority);
		path.addAll(keysOf(key));
		path.add(END);
		return path;
	}

	private List<Integer> readyUnder(List<Object> node) {
		List<Integer> under = new ArrayList<>();
		for (Map.Entry<Integer, Item> candidate : this.items.entrySet()) {
			Item item = candidate.getValue();
			if (isReady(item)) {
				List<Object> path = pathOf(candidate.getKey(), item.priority);
				if (path.size() >= node.size() && path.subList(0, node.size()).equals(node)) {
					under.add(candidate.getKey());
				}
			}
		}
		return under;
	}

	private static boolean isReady(Item item) {
		return item.dirty && !item.processing;
	}

	private void forgetIfIdle(int key) {
		Item item = this.items.get(key);
		if (!item.dirty && !item.processing && item.waiting == null) {
			this.items.remove(key);
		}
	}

	private void promote() {
		for (;;) {
			Integer first = null;
			for (Map.Entry<Integer, Item> candidate : this.items.entrySet()) {
				long[] entry = candidate.getValue().waiting;
				if (entry != null && entry[0] <= this.now) {
					long[] best = (first != null) ? this.items.get(first).waiting : null;
					if (best == null || entry[0] < best[0] || (entry[0] == best[0] && entry[1] < best[1])) {
						first = candidate.getKey();
					}
				}
			}
			if (first == null) {
				return;
			}
			addNow(first, this.items.get(first).priority);
		}
	}

}
