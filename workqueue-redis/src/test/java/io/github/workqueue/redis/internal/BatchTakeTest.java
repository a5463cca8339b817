package io.github.workqueue.redis.internal;

import java.util.ArrayList;
import java.util.List;

import io.lettuce.core.ScriptOutputType;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import io.github.workqueue.redis.TestRedis;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Takes of several items in one run of {@code batch.lua}, which a queue asks for when
 * several of an instance's threads wait in {@code get} at once: a moment the public API
 * cannot pin down, so these tests call the script as the batcher does, on a real Redis.
 * Several takes in one call follow the same order as one take per call: round-robin over
 * fairness keys item by item, highest priority first, several items of a priority without
 * keys at once and then the next priority.
 */
class BatchTakeTest {

	/**
	 * Holder, lease (microseconds), most expiries (none), ended lease memory
	 * (microseconds).
	 */
	private static final String[] FIXED_ARGS = { "test-holder", "30000000", "-1", "60000000" };

	private final RedisLink link = RedisLink.standalone(TestRedis.client());

	private final String[] keys = new QueueKeys(TestRedis.uniqueName("batch-take")).all();

	@AfterEach
	void close() {
		this.link.close();
	}

	@Test
	void severalTakesInOneCallShouldGoRoundRobinOverTheKeys() {
		addWithOptions("a/1", 0, "a", "a/2", 0, "a", "a/3", 0, "a", "b/1", 0, "b", "c/1", 0, "c", "b/2", 0, "b");
		assertThat(take(4)).containsExactly("a/1", "b/1", "c/1", "a/2");
		assertThat(take(3)).containsExactly("b/2", "a/3");
	}

	@Test
	void severalTakesInOneCallShouldEmptyAPriorityThenGoOnToTheNext() {
		addWithOptions("x", 1, "", "y", 1, "", "z", 0, "", "v", 1, "", "w", 2, "");
		assertThat(take(3)).containsExactly("w", "x", "y");
		assertThat(take(3)).containsExactly("v", "z");
	}

	@Test
	void oneCallShouldTakeDownManyPrioritiesWithTheLevelsItsOwnAddsMade() {
		List<Object> adds = new ArrayList<>();
		for (int priority = 0; priority < 20; priority++) {
			adds.addAll(List.of("p" + priority, priority, ""));
		}
		addWithOptions(adds.toArray());
		// The call that takes adds first: a level above the twenty, one below them, and
		// an item at a level that has one. Each item leaves with its own priority.
		List<BatchRequest.Add> more = adds("top", 25, "", "below", -1, "", "second-at-2", 2, "");
		List<Lease> expected = new ArrayList<>(List.of(new Lease("top", 25)));
		for (int priority = 19; priority >= 0; priority--) {
			expected.add(new Lease("p" + priority, priority));
			if (priority == 2) {
				expected.add(new Lease("second-at-2", 2));
			}
		}
		expected.add(new Lease("below", -1));
		assertThat(addAndTake(more, expected.size() + 1)).containsExactlyElementsOf(expected);
		assertThat(take(1)).isEmpty();
	}

	/**
	 * Adds with a priority and one fairness key (or none, when empty), in one call.
	 * @param triples item, priority and fairness key, for each add
	 */
	private void addWithOptions(Object... triples) {
		run(new ShardBatch(0, adds(triples), List.of(), 0));
	}

	private static List<BatchRequest.Add> adds(Object... triples) {
		List<BatchRequest.Add> adds = new ArrayList<>();
		for (int i = 0; i < triples.length; i += 3) {
			String key = (String) triples[i + 2];
			adds.add(new BatchRequest.Add(0, (String) triples[i], triples[i + 1].toString(),
					key.isEmpty() ? "" : "[\"" + key + "\"]"));
		}
		return adds;
	}

	/** Asks for leases on up to count items in one call; returns the items granted. */
	private List<String> take(int count) {
		return addAndTake(List.of(), count).stream().map(Lease::item).toList();
	}

	/**
	 * Adds, then asks for leases on up to count items, in one call; returns the leases.
	 */
	private List<Lease> addAndTake(List<BatchRequest.Add> adds, int count) {
		List<Object> reply = run(new ShardBatch(0, adds, List.of(), count));
		List<Lease> taken = new ArrayList<>();
		// The time to the next event, one result per add, then five values per lease:
		// item, token, deadline, time queued, priority.
		for (int at = 1 + adds.size(); at < reply.size(); at += 5) {
			taken.add(new Lease((String) reply.get(at), (Long) reply.get(at + 4)));
		}
		return taken;
	}

	/** A lease granted by a call, as far as these tests look at it. */
	private record Lease(String item, long priority) {

	}

	/**
	 * Runs the batch as the batcher does: Redis's time, and the queue's fixed arguments.
	 */
	private List<Object> run(ShardBatch batch) {
		return this.link.run(Script.BATCH, ScriptOutputType.MULTI, this.keys, batch.args("", FIXED_ARGS));
	}

}
