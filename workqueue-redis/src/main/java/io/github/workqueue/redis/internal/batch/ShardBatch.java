package io.github.workqueue.redis.internal.batch;

import java.util.ArrayList;
import java.util.List;

import org.jspecify.annotations.Nullable;

import io.github.workqueue.redis.internal.link.CallNumbers;
import io.github.workqueue.redis.internal.link.ReplicaAck;

/**
 * One shard's part of a batch: one run of batch.lua, whose call this class lays out on
 * the Java side, both ways ({@link #args} and {@link #complete}; the script's header
 * gives the same layout on the Lua side). Its adds are ordered plain adds first, then
 * adds with a priority (or fairness keys), as the script answers them.
 */
record ShardBatch(int shard, List<BatchRequest.Add> adds, List<BatchRequest.Done> dones, int wanted) {

	/**
	 * The most adds, dones or leases one shard's part carries, to keep one script short.
	 */
	static final int MOST_PER_PART = 256;

	/** How many fixed arguments (those after now) a part's call carries. */
	static final int FIXED_ARGS = 5;

	ShardBatch {
		List<BatchRequest.Add> ordered = new ArrayList<>(adds.size());
		adds.stream().filter(BatchRequest.Add::isPlain).forEach(ordered::add);
		adds.stream().filter((add) -> !add.isPlain()).forEach(ordered::add);
		adds = ordered;
	}

	/** Whether the part writes (adds or dones), rather than only asking for leases. */
	boolean hasWrites() {
		return !this.adds.isEmpty() || !this.dones.isEmpty();
	}

	/**
	 * The script's ARGV: now, the fixed arguments (holder, lease, most expiries, ended
	 * lease memory, the sender's id), the part's number, the counts of plain adds, dones
	 * and leases wanted, the plain adds' items, the dones' item and token pairs, then the
	 * count of adds with options and their item, priority and fairness keys triples, and,
	 * only if some add carries a trace context, their count and item and context pairs.
	 * @param number the part's number: its sender's parts to a shard go in increasing
	 * numbers, and the script refuses one whose number is not above the last it ran
	 * ({@link CallNumbers#isRepeatRefusal})
	 */
	String[] args(String now, String[] fixed, long number) {
		int plain = (int) this.adds.stream().filter(BatchRequest.Add::isPlain).count();
		int withOptions = this.adds.size() - plain;
		int traced = (int) this.adds.stream().filter((add) -> add.trace != null).count();
		String[] args = new String[11 + plain + 2 * this.dones.size() + 3 * withOptions
				+ ((traced > 0) ? 1 + 2 * traced : 0)];
		args[0] = now;
		System.arraycopy(fixed, 0, args, 1, FIXED_ARGS);
		args[6] = Long.toString(number);
		args[7] = Integer.toString(plain);
		args[8] = Integer.toString(this.dones.size());
		args[9] = Integer.toString(this.wanted);
		int i = 10;
		for (BatchRequest.Add add : this.adds.subList(0, plain)) {
			args[i++] = add.encoded;
		}
		for (BatchRequest.Done done : this.dones) {
			args[i++] = done.encoded;
			args[i++] = Long.toString(done.token);
		}
		args[i++] = Integer.toString(withOptions);
		for (BatchRequest.Add add : this.adds.subList(plain, this.adds.size())) {
			args[i++] = add.encoded;
			args[i++] = add.priority;
			args[i++] = add.keys;
		}
		if (traced > 0) {
			args[i++] = Integer.toString(traced);
			for (BatchRequest.Add add : this.adds) {
				if (add.trace != null) {
					args[i++] = add.encoded;
					args[i++] = add.trace;
				}
			}
		}
		return args;
	}

	/**
	 * Completes the part's adds and dones from the script's reply and reads the leases it
	 * granted. The reply: microseconds until the shard's next waiting item or lease
	 * deadline (-1 for none; set only when fewer leases were granted than wanted), one
	 * result per add (1 made dirty) and per done (1 accepted), in the order of
	 * {@link #args}, then per lease granted its item, token, deadline, microseconds
	 * queued and priority, and last, only when a granted item had trace contexts, the
	 * list of the leases' stored contexts ({@code ''} for none).
	 * @param sentNanos when the part was sent, which the leases' liveness counts from
	 * @param shortOf how far the replicas fell short of confirming the part's writes, or
	 * {@code null}: then each add, and each accepted done, fails with its exception
	 */
	Answer complete(List<Object> reply, long sentNanos, ReplicaAck.@Nullable Shortfall shortOf) {
		int index = 1;
		for (BatchRequest.Add add : this.adds) {
			boolean made = (Long) reply.get(index++) == 1;
			add.complete(made, (shortOf != null) ? shortOf.unreplicated("add", add.encoded) : null);
		}
		for (BatchRequest.Done done : this.dones) {
			boolean accepted = (Long) reply.get(index++) == 1;
			done.complete(accepted, (shortOf != null && accepted) ? shortOf.unreplicated("done", done.encoded) : null);
		}
		int granted = (reply.size() - index) / 5;
		List<?> traces = ((reply.size() - index) % 5 == 1) ? (List<?>) reply.get(reply.size() - 1) : null;
		List<Grant> grants = new ArrayList<>(granted);
		for (int g = 0; g < granted; g++, index += 5) {
			String stored = (traces != null) ? (String) traces.get(g) : null;
			grants.add(new Grant(this.shard, (String) reply.get(index), (Long) reply.get(index + 1),
					(Long) reply.get(index + 2), (Long) reply.get(index + 3), ((Long) reply.get(index + 4)).intValue(),
					sentNanos, (stored == null || stored.isEmpty()) ? null : stored));
		}
		return new Answer((Long) reply.get(0), grants);
	}

	/** What a part's reply granted, and when the shard has something next. */
	record Answer(long nextEventMicros, List<Grant> grants) {
	}

}
