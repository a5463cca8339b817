package io.github.workqueue.spring.internal;

import java.lang.System.Logger.Level;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import org.jspecify.annotations.Nullable;

import io.github.workqueue.core.DeadLetter;
import io.github.workqueue.core.DeadLetters;
import io.github.workqueue.core.RateLimitingQueue;

/**
 * The dead letters of an in-memory queue, kept by its worker container in the process: at
 * most a capacity of them, the oldest dropped (and counted) past it, keyed by the item's
 * {@code toString()} (a later dead letter of an equal key replaces the earlier). Lost
 * when the process ends, as the queue is.
 *
 * <p>
 * <b>Concurrency.</b> Thread-safe: every method holds the instance's monitor.
 */
final class InProcessDeadLetters implements DeadLetters<Object> {

	private static final System.Logger logger = System.getLogger(InProcessDeadLetters.class.getName());

	/** After the first drop, one WARN per this many. */
	private static final int DROPS_PER_LOG = 1000;

	private final RateLimitingQueue<Object> queue;

	private final int capacity;

	/** By key, oldest first. Guarded by this. */
	private final LinkedHashMap<String, Entry> entries = new LinkedHashMap<>();

	private long evicted;

	InProcessDeadLetters(RateLimitingQueue<Object> queue, int capacity) {
		this.queue = queue;
		this.capacity = capacity;
	}

	@Override
	public synchronized void deadLetter(Object item, String reason, int attempts, @Nullable Throwable lastError) {
		String key = String.valueOf(item);
		this.entries.remove(key);
		this.entries.put(key,
				new Entry(item, new DeadLetter(key, reason, attempts, DeadLetter.describe(lastError), Instant.now())));
		while (this.entries.size() > this.capacity) {
			Map.Entry<String, Entry> oldest = this.entries.entrySet().iterator().next();
			this.entries.remove(oldest.getKey());
			this.evicted++;
			if (this.evicted == 1 || this.evicted % DROPS_PER_LOG == 0) {
				logger.log(Level.WARNING, "workqueue '" + this.queue.name() + "': more than " + this.capacity
						+ " dead letters kept; dropped the oldest (" + this.evicted + " so far)");
			}
		}
	}

	@Override
	public synchronized List<DeadLetter> deadLetters() {
		List<DeadLetter> newestFirst = new ArrayList<>(this.entries.size());
		this.entries.values().forEach((entry) -> newestFirst.add(entry.letter()));
		Collections.reverse(newestFirst);
		return newestFirst;
	}

	@Override
	public boolean requeueDeadLetter(String item) {
		Entry entry;
		synchronized (this) {
			entry = this.entries.remove(item);
		}
		if (entry == null) {
			return false;
		}
		this.queue.add(entry.item());
		return true;
	}

	@Override
	public synchronized boolean dropDeadLetter(String item) {
		return this.entries.remove(item) != null;
	}

	@Override
	public synchronized long deadLetterCount() {
		return this.entries.size();
	}

	@Override
	public synchronized long deadLettersDropped() {
		return this.evicted;
	}

	private record Entry(Object item, DeadLetter letter) {

	}

}
