package io.github.workqueue.core.lincheck;

import java.util.Objects;
import java.util.SplittableRandom;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Runs long random sequences of operations, one at a time, on the queue and on its
 * specification, and compares every answer: the model checks explore interleavings of
 * short scenarios, this explores deep states (many ready items per key and priority,
 * turns that rotate many times), where an ordering mistake shows.
 */
class PriorityModelSequentialTest {

	@Test
	void priorityQueueShouldAnswerAsItsSpecification() throws InterruptedException {
		for (long seed = 0; seed < 200; seed++) {
			run(seed, new PriorityQueueLincheckTest(), new PriorityQueueModel());
		}
	}

	@Test
	void fairQueueShouldAnswerAsItsSpecification() throws InterruptedException {
		for (long seed = 0; seed < 200; seed++) {
			run(seed, new FairQueueLincheckTest(), new FairQueueModel());
		}
	}

	private static void run(long seed, PriorityQueueLincheckTest queue, PriorityQueueModel model)
			throws InterruptedException {
		SplittableRandom random = new SplittableRandom(seed);
		StringBuilder history = new StringBuilder();
		for (int step = 0; step < 400; step++) {
			int key = random.nextInt(1, 9);
			int priority = random.nextInt(0, 3);
			int delay = random.nextInt(0, 3);
			int operation = random.nextInt(100);
			Object actual;
			Object expected;
			if (operation < 30) {
				history.append("add(").append(key).append(") ");
				queue.add(key);
				model.add(key);
				continue;
			}
			else if (operation < 50) {
				history.append("addWithPriority(").append(key).append(',').append(priority).append(") ");
				queue.addWithPriority(key, priority);
				model.addWithPriority(key, priority);
				continue;
			}
			else if (operation < 58) {
				history.append("addAfter(")
					.append(key)
					.append(',')
					.append(delay)
					.append(',')
					.append(priority)
					.append(") ");
				queue.addAfterWithPriority(key, delay, priority);
				model.addAfterWithPriority(key, delay, priority);
				continue;
			}
			else if (operation < 80) {
				history.append("get ");
				actual = queue.getWithPriority();
				expected = model.getWithPriority();
			}
			else if (operation < 92) {
				history.append("done(").append(key).append(") ");
				queue.done(key);
				model.done(key);
				continue;
			}
			else if (operation < 96) {
				history.append("step ");
				queue.step();
				model.step();
				continue;
			}
			else {
				history.append("lenByPriority ");
				actual = queue.lenByPriority();
				expected = model.lenByPriority();
			}
			assertThat(Objects.toString(actual)).as("seed %d after %s", seed, history)
				.isEqualTo(Objects.toString(expected));
		}
	}

}
