package io.github.workqueue.core.internal;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@link EntryTable}'s reads without the lock, racing a writer that inserts and removes
 * keys (which leaves tombstones and forces rebuilds, growing and not): a reader may miss
 * an entry, but what it finds is always an entry of the key it asked for, fully made (its
 * state is one a writer set); once the writer stops, every key that never left is found.
 */
class EntryTableRaceTest {

	private static final int STABLE = 50;

	@Test
	void readsWithoutTheLockShouldOnlyEverFindTheirOwnKeysEntry() throws Exception {
		EntryTable<Integer> table = new EntryTable<>();
		Object lock = new Object();
		List<QueueEntry<Integer>> stable = new ArrayList<>();
		synchronized (lock) {
			for (int key = 0; key < STABLE; key++) {
				QueueEntry<Integer> entry = new QueueEntry<>(key, QueueEntry.DIRTY, 0);
				table.insert(entry);
				stable.add(entry);
			}
		}
		AtomicBoolean stop = new AtomicBoolean();
		AtomicReference<String> violation = new AtomicReference<>();
		CountDownLatch started = new CountDownLatch(3);
		Thread writer = new Thread(() -> {
			started.countDown();
			List<QueueEntry<Integer>> churn = new ArrayList<>();
			int next = STABLE;
			for (int step = 0; step < 400_000; step++) {
				synchronized (lock) {
					QueueEntry<Integer> entry = new QueueEntry<>(next++, QueueEntry.PROCESSING, 0);
					table.insert(entry);
					churn.add(entry);
					// Up to a few thousand live keys, then back down: rebuilds of both
					// kinds.
					int keep = ((next / 4096) % 2 == 0) ? 3000 : 20;
					while (churn.size() > keep) {
						QueueEntry<Integer> gone = churn.remove(0);
						gone.set(QueueEntry.REMOVED);
						table.remove(gone);
					}
				}
			}
			stop.set(true);
		});
		List<Thread> readers = new ArrayList<>();
		for (int r = 0; r < 2; r++) {
			int seed = r;
			readers.add(new Thread(() -> {
				started.countDown();
				int i = seed;
				while (!stop.get()) {
					Integer key = (i % 2 == 0) ? i % STABLE : STABLE + i % 200_000;
					QueueEntry<Integer> found = table.find(key);
					if (found != null) {
						int state = found.state();
						if (!found.item.equals(key) || (state != QueueEntry.DIRTY && state != QueueEntry.PROCESSING
								&& state != QueueEntry.REMOVED)) {
							violation.compareAndSet(null, "key " + key + " found " + found.item + " in state " + state);
						}
					}
					i += 7;
				}
			}));
		}
		writer.start();
		readers.forEach(Thread::start);
		started.await();
		writer.join();
		for (Thread reader : readers) {
			reader.join();
		}
		assertThat(violation.get()).isNull();
		synchronized (lock) {
			for (QueueEntry<Integer> entry : stable) {
				assertThat(table.find(entry.item)).isSameAs(entry);
			}
		}
	}

}
