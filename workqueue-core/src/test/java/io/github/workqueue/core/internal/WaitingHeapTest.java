package io.github.workqueue.core.internal;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.TreeSet;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@link WaitingHeap} against a sorted set of the waiting entries, under random adds,
 * earlier moves, removals and polls at random times, with few distinct ready times so
 * that ties (decided by sequence) are common, and enough churn that slots are reused many
 * times over.
 */
class WaitingHeapTest {

	/** One waiting entry in the model. */
	private record Waiting(QueueEntry<Integer> entry, long readyAt, long sequence) {
	}

	private static final Comparator<Waiting> ORDER = Comparator.comparingLong(Waiting::readyAt)
		.thenComparingLong(Waiting::sequence);

	@Test
	void shouldOrderByReadyTimeThenSequenceThroughMovesRemovalsAndSlotReuse() {
		SplittableRandom random = new SplittableRandom(7);
		WaitingHeap<Integer> heap = new WaitingHeap<>();
		TreeSet<Waiting> model = new TreeSet<>(ORDER);
		Map<QueueEntry<Integer>, Waiting> waiting = new HashMap<>();
		List<QueueEntry<Integer>> items = new ArrayList<>();
		for (int i = 0; i < 300; i++) {
			items.add(new QueueEntry<>(i, 0, 0));
		}
		long sequence = 0;
		for (int step = 0; step < 300_000; step++) {
			QueueEntry<Integer> item = items.get(random.nextInt(items.size()));
			Waiting current = waiting.get(item);
			int action = random.nextInt(10);
			if (current == null && action < 6) {
				Waiting added = new Waiting(item, random.nextInt(50), sequence++);
				heap.add(item, added.readyAt(), added.sequence());
				model.add(added);
				waiting.put(item, added);
			}
			else if (current != null && action < 4 && current.readyAt() > 0) {
				Waiting earlier = new Waiting(item, random.nextLong(current.readyAt()), current.sequence());
				heap.moveEarlier(item, earlier.readyAt());
				model.remove(current);
				model.add(earlier);
				waiting.put(item, earlier);
			}
			else if (current != null && action < 7) {
				heap.remove(item);
				model.remove(current);
				waiting.remove(item);
				assertThat(item.waitingSlot).isEqualTo(WaitingHeap.NO_SLOT);
			}
			else if (action >= 8) {
				long now = random.nextInt(50);
				Waiting first = model.isEmpty() ? null : model.first();
				QueueEntry<Integer> polled = heap.pollReady(now);
				if (first != null && first.readyAt() <= now) {
					assertThat(polled).as("step %d", step).isSameAs(first.entry());
					model.pollFirst();
					waiting.remove(polled);
					assertThat(polled.waitingSlot).isEqualTo(WaitingHeap.NO_SLOT);
				}
				else {
					assertThat(polled).as("step %d", step).isNull();
				}
			}
			assertThat(heap.size()).isEqualTo(model.size());
			if (current != null && waiting.containsKey(item)) {
				assertThat(heap.readyAt(item)).isEqualTo(waiting.get(item).readyAt());
			}
			if (!model.isEmpty()) {
				assertThat(heap.firstReadyAt()).isEqualTo(model.first().readyAt());
			}
		}
		QueueEntry<Integer> polled;
		while ((polled = heap.pollReady(Long.MAX_VALUE)) != null) {
			assertThat(polled).isSameAs(model.pollFirst().entry());
		}
		assertThat(model).isEmpty();
		heap.clear();
		assertThat(heap.size()).isZero();
	}

}
