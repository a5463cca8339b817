package io.github.workqueue.redis.internal.shared;

import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.SortedMap;
import java.util.TreeMap;
import java.util.function.Supplier;

import io.github.workqueue.redis.InFlightItem;
import io.github.workqueue.redis.RedisQueueStats;
import io.lettuce.core.ScriptOutputType;

import io.github.workqueue.redis.internal.link.RedisLink;
import io.github.workqueue.redis.internal.link.Script;

/**
 * What an operator reads and does on a whole queue, over all its shards: lengths, the
 * queue-wide figures, in-flight and parked items, and requeueing or dropping a parked
 * item. Each read is a snapshot per shard, the shards read one after another. Thread-safe
 * (stateless).
 */
public final class QueueViews {

	private final RedisLink link;

	private final Shards shards;

	private final Supplier<String> now;

	public QueueViews(RedisLink link, Shards shards, Supplier<String> now) {
		this.link = link;
		this.shards = shards;
		this.now = now;
	}

	public int len() {
		long length = 0;
		for (int shard = 0; shard < this.shards.count(); shard++) {
			Long ready = this.link.run(Script.LEN, ScriptOutputType.INTEGER, this.shards.keys(shard).scriptKeys(),
					this.now.get());
			length += ready;
		}
		return (int) Math.min(Integer.MAX_VALUE, length);
	}

	/** Ready items per priority, every shard summed, highest first. */
	public SortedMap<Integer, Integer> lenByPriority() {
		SortedMap<Integer, Integer> sizes = new TreeMap<>(Collections.reverseOrder());
		String time = this.now.get();
		for (int shard = 0; shard < this.shards.count(); shard++) {
			List<Long> flat = this.link.run(Script.LEN_BY_PRIORITY, ScriptOutputType.MULTI,
					this.shards.keys(shard).scriptKeys(), time);
			for (int i = 0; i + 1 < flat.size(); i += 2) {
				sizes.merge(flat.get(i).intValue(), flat.get(i + 1).intValue(), Integer::sum);
			}
		}
		return sizes;
	}

	/** Ready items per first fairness key, every shard and priority summed. */
	public Map<String, Integer> lenByFairnessKey() {
		Map<String, Integer> sizes = new TreeMap<>();
		String time = this.now.get();
		for (int shard = 0; shard < this.shards.count(); shard++) {
			List<Object> flat = this.link.run(Script.LEN_BY_FAIRNESS_KEY, ScriptOutputType.MULTI,
					this.shards.keys(shard).scriptKeys(), time);
			for (int i = 0; i + 1 < flat.size(); i += 2) {
				sizes.merge((String) flat.get(i), ((Long) flat.get(i + 1)).intValue(), Integer::sum);
			}
		}
		return sizes;
	}

	/**
	 * Items waiting for their ready time: read from the stats, whose script first
	 * promotes the items whose time has come.
	 */
	public int waitingLen() {
		return (int) Math.min(Integer.MAX_VALUE, stats().waiting());
	}

	/** The figures of every shard, summed. */
	public RedisQueueStats stats() {
		long[] sums = new long[7];
		String time = this.now.get();
		for (int shard = 0; shard < this.shards.count(); shard++) {
			List<Long> figures = this.link.run(Script.STATS, ScriptOutputType.MULTI,
					this.shards.keys(shard).scriptKeys(), time);
			for (int i = 0; i < sums.length; i++) {
				sums[i] += figures.get(i);
			}
		}
		return new RedisQueueStats(sums[0], sums[1], sums[2], sums[3], sums[4], sums[5], sums[6]);
	}

	public Map<String, String> parked() {
		Map<String, String> parked = new LinkedHashMap<>();
		for (int shard = 0; shard < this.shards.count(); shard++) {
			parked.putAll(this.link.hashGetAll(this.shards.keys(shard).parked()));
		}
		return parked;
	}

	/**
	 * Takes an item out of the parked ones, queueing it again or dropping it.
	 * @return whether it was parked
	 */
	public boolean unpark(String encoded, boolean requeue) {
		Objects.requireNonNull(encoded, "encoded");
		Long wasParked = this.link.run(Script.UNPARK, ScriptOutputType.INTEGER,
				this.shards.keys(this.shards.of(encoded)).scriptKeys(), this.now.get(), encoded,
				requeue ? "requeue" : "drop");
		return wasParked == 1;
	}

	public List<InFlightItem> inFlight() {
		List<InFlightItem> items = new ArrayList<>();
		String time = this.now.get();
		for (int shard = 0; shard < this.shards.count(); shard++) {
			List<String> flat = this.link.run(Script.IN_FLIGHT, ScriptOutputType.MULTI,
					this.shards.keys(shard).scriptKeys(), time);
			Instant observedAt = microsToInstant(Long.parseLong(flat.get(0)));
			for (int i = 1; i < flat.size(); i += 5) {
				items.add(new InFlightItem(flat.get(i), Long.parseLong(flat.get(i + 1)), flat.get(i + 2),
						microsToInstant(Long.parseLong(flat.get(i + 3))),
						microsToInstant(Long.parseLong(flat.get(i + 4))), observedAt));
			}
		}
		return items;
	}

	private static Instant microsToInstant(long micros) {
		return Instant.ofEpochSecond(micros / 1_000_000, (micros % 1_000_000) * 1000);
	}

}
