package io.github.workqueue.redis.internal;

import java.util.List;

/**
 * One shard's part of a batch: one run of batch.lua.
 */
record ShardBatch(int shard, List<BatchRequest.Add> adds, List<BatchRequest.Done> dones, int wanted) {

	String[] args(String now, String[] fixed) {
		String[] args = new String[8 + this.adds.size() + 2 * this.dones.size()];
		args[0] = now;
		System.arraycopy(fixed, 0, args, 1, fixed.length);
		args[5] = Integer.toString(this.adds.size());
		args[6] = Integer.toString(this.dones.size());
		args[7] = Integer.toString(this.wanted);
		int i = 8;
		for (BatchRequest.Add add : this.adds) {
			args[i++] = add.encoded;
		}
		for (BatchRequest.Done done : this.dones) {
			args[i++] = done.lease.encoded;
			args[i++] = Long.toString(done.lease.token);
		}
		return args;
	}

}
