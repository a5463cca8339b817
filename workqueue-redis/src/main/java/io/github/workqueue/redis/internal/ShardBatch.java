package io.github.workqueue.redis.internal;

import java.util.ArrayList;
import java.util.List;

/**
 * One shard's part of a batch: one run of batch.lua. Its adds are ordered plain adds
 * first, then adds with a priority (or fairness keys), as the script answers them.
 */
record ShardBatch(int shard, List<BatchRequest.Add> adds, List<BatchRequest.Done> dones, int wanted) {

	ShardBatch {
		List<BatchRequest.Add> ordered = new ArrayList<>(adds.size());
		adds.stream().filter(BatchRequest.Add::isPlain).forEach(ordered::add);
		adds.stream().filter((add) -> !add.isPlain()).forEach(ordered::add);
		adds = ordered;
	}

	String[] args(String now, String[] fixed) {
		int plain = (int) this.adds.stream().filter(BatchRequest.Add::isPlain).count();
		int withOptions = this.adds.size() - plain;
		String[] args = new String[9 + plain + 2 * this.dones.size() + 3 * withOptions];
		args[0] = now;
		System.arraycopy(fixed, 0, args, 1, fixed.length);
		args[5] = Integer.toString(plain);
		args[6] = Integer.toString(this.dones.size());
		args[7] = Integer.toString(this.wanted);
		int i = 8;
		for (BatchRequest.Add add : this.adds.subList(0, plain)) {
			args[i++] = add.encoded;
		}
		for (BatchRequest.Done done : this.dones) {
			args[i++] = done.lease.encoded;
			args[i++] = Long.toString(done.lease.token);
		}
		args[i++] = Integer.toString(withOptions);
		for (BatchRequest.Add add : this.adds.subList(plain, this.adds.size())) {
			args[i++] = add.encoded;
			args[i++] = add.priority;
			args[i++] = add.keys;
		}
		return args;
	}

}
