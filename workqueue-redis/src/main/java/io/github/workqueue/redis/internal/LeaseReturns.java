package io.github.workqueue.redis.internal;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;

import io.lettuce.core.ScriptOutputType;

/**
 * Gives leases back to Redis before they expire: one release script per shard, each item
 * still held by its token going back to the head of its shard's FIFO at once, not counted
 * as a redelivery. Used for the leases an instance still holds when its drain ends, and
 * for grants whose getter left before they came. Thread-safe (stateless).
 */
final class LeaseReturns {

	private final RedisLink link;

	private final Shards shards;

	private final Supplier<String> now;

	LeaseReturns(RedisLink link, Shards shards, Supplier<String> now) {
		this.link = link;
		this.shards = shards;
		this.now = now;
	}

	/**
	 * Gives back leases, given as item and token pairs.
	 * @return how many were still held by their token, and so went back
	 * @throws io.lettuce.core.RedisException if Redis could not be reached
	 */
	long giveBack(List<String> encoded, List<Long> tokens) {
		long released = 0;
		for (SentScript<Long> shard : send(encoded, tokens)) {
			released += shard.reply();
		}
		return released;
	}

	/**
	 * Sends the give-back scripts, one per shard, all together, without waiting for their
	 * replies: each says how many leases of its shard went back.
	 * @throws io.lettuce.core.RedisException if Redis could not be reached
	 */
	List<SentScript<Long>> send(List<String> encoded, List<Long> tokens) {
		Map<Integer, List<Integer>> byShard = new LinkedHashMap<>();
		for (int i = 0; i < encoded.size(); i++) {
			byShard.computeIfAbsent(this.shards.of(encoded.get(i)), (shard) -> new ArrayList<>()).add(i);
		}
		List<SentScript<Long>> sent = new ArrayList<>(byShard.size());
		for (Map.Entry<Integer, List<Integer>> shard : byShard.entrySet()) {
			List<Integer> indexes = shard.getValue();
			String[] args = new String[1 + 2 * indexes.size()];
			args[0] = this.now.get();
			for (int i = 0; i < indexes.size(); i++) {
				args[1 + 2 * i] = encoded.get(indexes.get(i));
				args[2 + 2 * i] = Long.toString(tokens.get(indexes.get(i)));
			}
			sent.add(this.link.send(Script.RELEASE, ScriptOutputType.INTEGER, this.shards.keys(shard.getKey()).all(),
					args));
		}
		return sent;
	}

}
