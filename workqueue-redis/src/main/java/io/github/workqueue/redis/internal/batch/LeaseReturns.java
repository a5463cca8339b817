package io.github.workqueue.redis.internal.batch;

import java.lang.System.Logger.Level;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;

import io.github.workqueue.redis.RedisQueue;
import io.lettuce.core.ScriptOutputType;

import io.github.workqueue.redis.internal.link.RedisLink;
import io.github.workqueue.redis.internal.link.Script;
import io.github.workqueue.redis.internal.link.SentScript;

import io.github.workqueue.redis.internal.shared.Shards;

/**
 * Gives leases back to Redis before they expire: one release script per shard, each item
 * still held by its token going back to the head of its shard's FIFO at once, not counted
 * as a redelivery. Used for the leases an instance still holds when its drain ends, and
 * for grants whose getter left before they came. Thread-safe (stateless).
 *
 * <p>
 * Public only for the queue's classes one package up; not an API.
 */
public final class LeaseReturns {

	private static final System.Logger logger = System.getLogger(RedisQueue.class.getName());

	private final String name;

	private final RedisLink link;

	private final Shards shards;

	private final Supplier<String> now;

	public LeaseReturns(String name, RedisLink link, Shards shards, Supplier<String> now) {
		this.name = name;
		this.link = link;
		this.shards = shards;
		this.now = now;
	}

	/**
	 * Gives back leases, given as item and token pairs.
	 * @return how many were still held by their token, and so went back
	 * @throws io.lettuce.core.RedisException if Redis could not be reached
	 */
	public long giveBack(List<String> encoded, List<Long> tokens) {
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
			sent.add(this.link.send(Script.RELEASE, ScriptOutputType.INTEGER,
					this.shards.keys(shard.getKey()).scriptKeys(), args));
		}
		return sent;
	}

	/**
	 * Gives back grants that no thread took, in order, without waiting: the scripts leave
	 * now, from the calling thread (so that they go before anything this instance sends
	 * later, its close included), and their replies are read on a helper thread, so that
	 * the caller never waits for a shard that stopped answering just now. A give-back
	 * that fails is logged: those leases come back when they expire.
	 */
	void giveBackUntaken(List<Grant> grants) {
		if (grants.isEmpty()) {
			return;
		}
		// Each goes to the head of its queue: the last first, so that they keep their
		// order.
		List<Grant> lastFirst = new ArrayList<>(grants);
		Collections.reverse(lastFirst);
		List<SentScript<Long>> sent;
		try {
			sent = send(lastFirst.stream().map(Grant::encoded).toList(), lastFirst.stream().map(Grant::token).toList());
		}
		catch (RuntimeException ex) {
			couldNotGiveBack(grants, ex);
			return;
		}
		this.link.helpers().execute(() -> {
			try {
				sent.forEach(SentScript::reply);
			}
			catch (RuntimeException ex) {
				couldNotGiveBack(grants, ex);
			}
		});
	}

	private void couldNotGiveBack(List<Grant> grants, RuntimeException ex) {
		logger.log(Level.WARNING, "workqueue '" + this.name + "': could not give back " + grants.size()
				+ " leases that no thread took (" + ex + "); they come back when they expire");
	}

}
