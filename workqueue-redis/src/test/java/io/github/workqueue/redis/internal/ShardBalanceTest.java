package io.github.workqueue.redis.internal;

import java.util.Arrays;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import io.github.workqueue.redis.internal.shared.Shards;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Shards share the items evenly: 100,000 keys of the shapes users add (numbered ids, JSON
 * records of a region and an id) spread so that the fullest shard holds at most 5% more
 * than the emptiest, so that no master of a cluster carries much more than its share.
 */
class ShardBalanceTest {

	@ParameterizedTest(name = "{0} shards, {1}")
	@CsvSource(delimiter = '|', textBlock = """
			3 | order-%d
			8 | order-%d
			3 | '{"region":"eu","id":%d}'
			8 | '{"region":"eu","id":%d}'
			""")
	void keysShouldSpreadEvenlyOverTheShards(int count, String shape) {
		Shards shards = new Shards("workqueue", "balance", count);
		int[] items = new int[count];
		for (int i = 0; i < 100_000; i++) {
			items[shards.of(String.format(shape, i))]++;
		}
		assertThat(String.format(shape, 1)).as("one key per number").isNotEqualTo(String.format(shape, 2));
		int most = Arrays.stream(items).max().getAsInt();
		int least = Arrays.stream(items).min().getAsInt();
		assertThat((double) most / least).as("items per shard " + Arrays.toString(items)).isLessThanOrEqualTo(1.05);
	}

}
