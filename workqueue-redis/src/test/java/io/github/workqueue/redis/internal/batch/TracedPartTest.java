package io.github.workqueue.redis.internal.batch;

import java.util.List;

import io.lettuce.core.ScriptOutputType;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import io.github.workqueue.redis.TestRedis;
import io.github.workqueue.redis.internal.link.RedisLink;
import io.github.workqueue.redis.internal.link.Script;
import io.github.workqueue.redis.internal.shared.QueueKeys;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A part's adds carry their trace contexts only when they have some, and its grants bring
 * back the contexts of their items only when there are some: a queue without tracing
 * sends and receives exactly what it did before.
 */
class TracedPartTest {

	/** Holder, lease, most expiries, ended lease memory, the sender. */
	private static final String[] FIXED_ARGS = { "test-holder", "30000000", "-1", "60000000", "test-sender" };

	private final RedisLink link = RedisLink.standalone(TestRedis.client());

	private final String[] keys = new QueueKeys(TestRedis.uniqueName("traced-part")).scriptKeys();

	private long lastPartNumber;

	@AfterEach
	void close() {
		this.link.close();
	}

	private static BatchRequest.Add add(String item, String trace) {
		return new BatchRequest.Add(0, item, null, "", trace, null);
	}

	private List<Object> run(ShardBatch batch) {
		return this.link.run(Script.BATCH, ScriptOutputType.MULTI, this.keys,
				batch.args("", FIXED_ARGS, ++this.lastPartNumber));
	}

	@Test
	void aPartWithoutContextsShouldBeLaidOutAsBefore() {
		ShardBatch batch = new ShardBatch(0, List.of(add("a", null), new BatchRequest.Add(0, "b", "3", "")), List.of(),
				2);
		assertThat(batch.args("", FIXED_ARGS, 1)).hasSize(11 + 1 + 3);
		List<Object> reply = run(batch);
		assertThat(reply).as("next event, two add results, two grants of five fields, nothing more")
			.hasSize(1 + 2 + 2 * 5);
		assertThat(batch.complete(reply, System.nanoTime(), null).grants()).extracting(Grant::traces)
			.containsOnlyNulls();
	}

	@Test
	void theContextsOfAPartsAddsShouldComeBackWithTheGrantThatTakesTheirItem() {
		ShardBatch adds = new ShardBatch(0, List.of(add("a", "c1"), add("b", null), add("a", "c2")), List.of(), 0);
		assertThat(adds.args("", FIXED_ARGS, 1)).as("the count and two (item, context) pairs at the end")
			.hasSize(11 + 3 + 1 + 2 * 2)
			.endsWith("2", "a", "c1", "a", "c2");
		run(adds);
		ShardBatch addAndTake = new ShardBatch(0, List.of(add("a", "c3")), List.of(), 2);
		List<Grant> grants = addAndTake.complete(run(addAndTake), System.nanoTime(), null).grants();
		assertThat(grants).extracting(Grant::encoded).containsExactly("a", "b");
		assertThat(grants).extracting(Grant::traces).containsExactly("3 c1 c2 c3", null);
	}

}
