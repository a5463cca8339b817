package io.github.workqueue.core.internal;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.SplittableRandom;
import java.util.TreeSet;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@link WaitingHeap} against a sorted set of the live entries, under random adds,
 * earlier moves, cancels and polls, with few distinct ready times so that ties are
 * common: the first live entry is always the model's first, and enough supersessions run
 * to compact the arrays many times.
 */
class WaitingHeapTest {

	private static final Comparator<WaitingEntry<Integer>> ORDER = Comparator
		.<WaitingEntry<Integer>>comparingLong((waiting) -> waiting.readyAt)
		.thenComparingLong((waiting) -> waiting.sequence);

	@Test
	void theFirstLiveEntryShouldFollowTheModelThroughSupersessionsAndCompactions() {
		SplittableRandom random = new SplittableRandom(7);
		WaitingHeap<Integer> heap = new WaitingHeap<>();
		TreeSet<WaitingEntry<Integer>> model = new TreeSet<>(ORDER);
		List<QueueEntry<Integer>> items = new ArrayList<>();
		for (int i = 0; i < 300; i++) {
			items.add(new QueueEntry<>(i, 0, 0));
		}
		long sequence = 0;
		for (int step = 0; step < 300_000; step++) {
			QueueEntry<Integer> item = items.get(random.nextInt(items.size()));
			WaitingEntry<Integer> current = item.waiting;
			int action = random.nextInt(10);
			if (current == null && action < 6) {
				WaitingEntry<Integer> waiting = new WaitingEntry<>(item, random.nextInt(50), sequence++);
				item.waiting = waiting;
				heap.add(waiting);
				model.add(waiting);
			}
			else if (current != null && action < 4 && current.readyAt > 0) {
				WaitingEntry<Integer> earlier = new WaitingEntry<>(item, random.nextLong(current.readyAt),
						current.sequence);
				current.supersede();
				item.waiting = earlier;
				heap.superseded();
				heap.add(earlier);
				model.remove(current);
				model.add(earlier);
			}
			else if (current != null && action < 7) {
				current.supersede();
				item.waiting = null;
				heap.superseded();
				model.remove(current);
			}
			else if (action >= 8) {
				WaitingEntry<Integer> first = heap.peek();
				assertThat(first).as("step %d", step).isSameAs(model.isEmpty() ? null : model.first());
				if (first != null) {
					heap.poll();
					first.entry().waiting = null;
					model.pollFirst();
				}
			}
			assertThat(heap.size()).isEqualTo(model.size());
		}
		List<WaitingEntry<Integer>> live = new ArrayList<>();
		heap.forEachLive(live::add);
		assertThat(live).containsExactlyInAnyOrderElementsOf(model);
		WaitingEntry<Integer> first;
		while ((first = heap.peek()) != null) {
			assertThat(first).isSameAs(model.pollFirst());
			heap.poll();
			first.entry().waiting = null;
		}
		assertThat(model).isEmpty();
	}

}
