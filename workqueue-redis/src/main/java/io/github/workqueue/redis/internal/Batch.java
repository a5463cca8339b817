package io.github.workqueue.redis.internal;

import java.util.ArrayList;
import java.util.List;

/**
 * What one batch of the {@link Batcher} carries: adds and dones of any shard, and the
 * takers it asks leases for, of {@code shard}. Immutable (the lists are not changed once
 * the batch is made).
 */
record Batch(List<BatchRequest.Add> adds, List<BatchRequest.Done> dones, List<Taker> takers, int shard) {

	/** Tells the takers this batch asked for that it was answered (or failed). */
	void answered() {
		this.takers.forEach(Taker::tried);
	}

	/** The batch's part for each shard it concerns. */
	List<ShardBatch> byShard(int shards) {
		List<ShardBatch> parts = new ArrayList<>();
		for (int shard = 0; shard < shards; shard++) {
			int wanted = (shard == this.shard) ? this.takers.size() : 0;
			List<BatchRequest.Add> shardAdds = new ArrayList<>();
			for (BatchRequest.Add add : this.adds) {
				if (add.shard == shard) {
					shardAdds.add(add);
				}
			}
			List<BatchRequest.Done> shardDones = new ArrayList<>();
			for (BatchRequest.Done done : this.dones) {
				if (done.shard == shard) {
					shardDones.add(done);
				}
			}
			if (wanted > 0 || !shardAdds.isEmpty() || !shardDones.isEmpty()) {
				parts.add(new ShardBatch(shard, shardAdds, shardDones, wanted));
			}
		}
		return parts;
	}

}
