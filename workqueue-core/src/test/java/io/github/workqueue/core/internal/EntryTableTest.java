package io.github.workqueue.core.internal;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@link EntryTable} against a {@code HashMap} under random inserts and removals, with
 * keys chosen to collide: tombstones, their reuse and the rebuilds keep every entry
 * findable, and a churn of distinct keys does not grow the array.
 */
class EntryTableTest {

	/** A key whose hash code is one of a few values, so that runs form and wrap. */
	record Colliding(int id) {

		@Override
		public int hashCode() {
			return this.id % 7;
		}

	}

	@Test
	void everyEntryShouldStayFindableThroughRandomInsertsAndRemovals() {
		SplittableRandom random = new SplittableRandom(42);
		EntryTable<Object> table = new EntryTable<>();
		Map<Object, QueueEntry<Object>> model = new HashMap<>();
		for (int step = 0; step < 200_000; step++) {
			Object key = (random.nextInt(4) == 0) ? new Colliding(random.nextInt(64)) : random.nextInt(3_000);
			QueueEntry<Object> present = model.get(key);
			assertThat(table.find(key)).as("step %d, key %s", step, key).isSameAs(present);
			if (present == null) {
				QueueEntry<Object> entry = new QueueEntry<>(key, QueueEntry.DIRTY, 0);
				table.insert(entry);
				model.put(key, entry);
			}
			else if (random.nextBoolean()) {
				table.remove(present);
				model.remove(key);
			}
			assertThat(table.size()).isEqualTo(model.size());
		}
		List<QueueEntry<Object>> visited = new ArrayList<>();
		table.forEach(visited::add);
		assertThat(visited).containsExactlyInAnyOrderElementsOf(model.values());
		for (Map.Entry<Object, QueueEntry<Object>> mapping : model.entrySet()) {
			assertThat(table.find(mapping.getKey())).isSameAs(mapping.getValue());
		}
	}

	@Test
	void aChurnOfDistinctKeysShouldReuseTheArrayRatherThanGrowIt() {
		EntryTable<Integer> table = new EntryTable<>();
		List<QueueEntry<Integer>> live = new ArrayList<>();
		for (int key = 0; key < 1_000_000; key++) {
			QueueEntry<Integer> entry = new QueueEntry<>(key, QueueEntry.DIRTY, 0);
			table.insert(entry);
			live.add(entry);
			if (live.size() > 10) {
				table.remove(live.remove(0));
			}
		}
		assertThat(table.size()).isEqualTo(10);
		assertThat(table.capacity()).isLessThanOrEqualTo(64);
		for (QueueEntry<Integer> entry : live) {
			assertThat(table.find(entry.item)).isSameAs(entry);
		}
	}

	@Test
	void removingAnEntryThatIsNotThereShouldChangeNothing() {
		EntryTable<String> table = new EntryTable<>();
		QueueEntry<String> kept = new QueueEntry<>("kept", QueueEntry.DIRTY, 0);
		table.insert(kept);
		table.remove(new QueueEntry<>("kept", QueueEntry.DIRTY, 0));
		table.remove(new QueueEntry<>("absent", QueueEntry.DIRTY, 0));
		assertThat(table.size()).isOne();
		assertThat(table.find("kept")).isSameAs(kept);
	}

}
