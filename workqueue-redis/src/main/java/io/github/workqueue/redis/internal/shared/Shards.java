package io.github.workqueue.redis.internal.shared;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.zip.CRC32;

import io.lettuce.core.cluster.SlotHash;

/**
 * Where a queue's items live: one shard, under the hash tag {@code {prefix:name}}, or S
 * shards, each under a tag of its own chosen so that the shards' Redis Cluster slots are
 * spread evenly over the slot range (shard i's slot lies in the i-th S-th of it), which
 * places them on different masters of a cluster whose masters share the slots evenly. An
 * item always lives in the same shard: the CRC-32 of its encoded form, modulo S, which
 * every instance computes alike. Immutable.
 */
public final class Shards {

	private final List<QueueKeys> keys;

	public Shards(String prefix, String name, int count) {
		if (count < 1) {
			throw new IllegalArgumentException("shards must be at least 1, was " + count);
		}
		List<QueueKeys> shards = new ArrayList<>(count);
		String base = prefix + ":" + name;
		if (count == 1) {
			shards.add(new QueueKeys(base));
		}
		for (int shard = 0; count > 1 && shard < count; shard++) {
			shards.add(new QueueKeys(tagInSlotRange(base + ":" + shard, shard, count)));
		}
		this.keys = List.copyOf(shards);
	}

	/**
	 * The first of {@code base}, {@code base.1}, {@code base.2}... whose slot lies in the
	 * shard's part of the slot range.
	 */
	private static String tagInSlotRange(String base, int shard, int count) {
		int from = shard * SlotHash.SLOT_COUNT / count;
		int to = (shard + 1) * SlotHash.SLOT_COUNT / count;
		for (int attempt = 0;; attempt++) {
			String tag = (attempt == 0) ? base : base + "." + attempt;
			int slot = SlotHash.getSlot(tag);
			if (slot >= from && slot < to) {
				return tag;
			}
		}
	}

	public int count() {
		return this.keys.size();
	}

	public QueueKeys keys(int shard) {
		return this.keys.get(shard);
	}

	/** The shard of an item, by its encoded form. */
	public int of(String encoded) {
		if (this.keys.size() == 1) {
			return 0;
		}
		CRC32 crc = new CRC32();
		crc.update(encoded.getBytes(StandardCharsets.UTF_8));
		return (int) (crc.getValue() % this.keys.size());
	}

}
