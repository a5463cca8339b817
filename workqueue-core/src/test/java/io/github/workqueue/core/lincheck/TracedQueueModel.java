package io.github.workqueue.core.lincheck;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

import org.jspecify.annotations.Nullable;

/**
 * The sequential specification of trace contexts in the FIFO layer, written from
 * DESIGN.md's contract: each add's context goes to the key's next processing (those made
 * since its last take), a take hands them all over, a remove drops the pending ones, an
 * add dropped at shutdown keeps none. Without {@code done} (see
 * {@link TracedQueueLincheckTest}).
 */
public class TracedQueueModel {

	private final ArrayDeque<Integer> fifo = new ArrayDeque<>();

	private final Set<Integer> dirty = new HashSet<>();

	private final Set<Integer> processing = new HashSet<>();

	/** Per key, the contexts of the adds since its last take. */
	private final Map<Integer, List<Integer>> pending = new HashMap<>();

	private boolean shuttingDown;

	public void addTraced(int key, int context) {
		if (this.shuttingDown) {
			return;
		}
		this.pending.computeIfAbsent(key, (k) -> new ArrayList<>()).add(context);
		if (this.dirty.add(key) && !this.processing.contains(key)) {
			this.fifo.add(key);
		}
	}

	public @Nullable String getWithTraces() {
		Integer item = this.fifo.poll();
		if (item == null) {
			return null;
		}
		this.dirty.remove(item);
		this.processing.add(item);
		List<Integer> traces = this.pending.remove(item);
		return TracedQueueLincheckTest.describe(item, traces);
	}

	public boolean remove(int key) {
		if (!this.dirty.remove(key)) {
			return false;
		}
		this.pending.remove(key);
		if (!this.processing.contains(key)) {
			this.fifo.remove(key);
		}
		return true;
	}

	public void shutDown() {
		this.shuttingDown = true;
	}

}
