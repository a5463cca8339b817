package io.github.workqueue.redis.internal.batch;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.TimeUnit;

import org.jspecify.annotations.Nullable;

/**
 * What one instance has to send to each shard: adds and dones in the order they were
 * asked, at most {@link ShardBatch#MOST_PER_PART} of each per part, and each shard's
 * backoff after a failed part (its dones are asked again once the backoff passed; adds
 * fail at once and are never retried here). An add waits for its thread's done without
 * waiting on the same shard to be in a part first, since a part runs its adds before its
 * dones (group commit keeps a thread's order).
 *
 * <p>
 * <b>Concurrency.</b> Not thread-safe: guarded by the owning {@link BatchState}'s
 * monitor.
 */
final class PendingRequests {

	private static final long FIRST_BACKOFF_NANOS = TimeUnit.MILLISECONDS.toNanos(50);

	private static final long LONGEST_BACKOFF_NANOS = TimeUnit.MILLISECONDS.toNanos(500);

	/** Per shard, the adds waiting for its next part. */
	private final List<ArrayDeque<BatchRequest.Add>> adds;

	/** Per shard, the dones waiting for its next part. */
	private final List<ArrayDeque<BatchRequest.Done>> dones;

	/** Per shard: before this time, after a failed part, only adds are sent to it. */
	private final long[] retryAt;

	private final long[] backoffNanos;

	/** How many of the pending adds have a caller that waits for the answer. */
	private int awaitedAdds;

	PendingRequests(int shards, long start) {
		List<ArrayDeque<BatchRequest.Add>> addQueues = new ArrayList<>(shards);
		List<ArrayDeque<BatchRequest.Done>> doneQueues = new ArrayList<>(shards);
		for (int shard = 0; shard < shards; shard++) {
			addQueues.add(new ArrayDeque<>());
			doneQueues.add(new ArrayDeque<>());
		}
		this.adds = List.copyOf(addQueues);
		this.dones = List.copyOf(doneQueues);
		this.retryAt = new long[shards];
		Arrays.fill(this.retryAt, start);
		this.backoffNanos = new long[shards];
		Arrays.fill(this.backoffNanos, FIRST_BACKOFF_NANOS);
	}

	/**
	 * Queues an add, after the calling thread's last done without waiting if that one is
	 * for the same shard and not in a part yet.
	 */
	void add(BatchRequest.Add request, BatchRequest.@Nullable Done threadsLastDone) {
		if (threadsLastDone != null && threadsLastDone.shard == request.shard && !threadsLastDone.sent) {
			request.after = threadsLastDone;
		}
		this.adds.get(request.shard).add(request);
		if (request.async == null) {
			this.awaitedAdds++;
		}
	}

	/**
	 * Whether a pending add's caller waits for its answer: then a batch does not linger
	 * for the workers' asks, which would hold that caller.
	 */
	boolean hasAwaitedAdds() {
		return this.awaitedAdds > 0;
	}

	void done(BatchRequest.Done request) {
		this.dones.get(request.shard).add(request);
	}

	boolean isEmpty() {
		for (int shard = 0; shard < this.adds.size(); shard++) {
			if (!this.adds.get(shard).isEmpty() || !this.dones.get(shard).isEmpty()) {
				return false;
			}
		}
		return true;
	}

	/** Whether a part for the shard would carry a request now. */
	boolean sendable(int shard, long now) {
		for (BatchRequest.Add add : this.adds.get(shard)) {
			if (!waitsForItsDone(add)) {
				return true;
			}
		}
		return retryDue(shard, now) && hasDones(shard);
	}

	boolean hasDones(int shard) {
		return !this.dones.get(shard).isEmpty();
	}

	/** Whether the shard's backoff, if any, has passed. */
	boolean retryDue(int shard, long now) {
		return now - this.retryAt[shard] >= 0;
	}

	long retryAt(int shard) {
		return this.retryAt[shard];
	}

	/**
	 * Takes the adds that may go in the shard's next part: not one whose thread's done
	 * without waiting is not in an earlier part yet (it stays, in order, for a later
	 * part).
	 */
	List<BatchRequest.Add> takeAdds(int shard) {
		ArrayDeque<BatchRequest.Add> pending = this.adds.get(shard);
		boolean held = false;
		for (BatchRequest.Add add : pending) {
			if (waitsForItsDone(add)) {
				held = true;
				break;
			}
		}
		if (!held) {
			return counted(takeUpTo(pending));
		}
		List<BatchRequest.Add> taken = new ArrayList<>();
		List<BatchRequest.Add> kept = new ArrayList<>();
		for (BatchRequest.Add add; (add = pending.poll()) != null;) {
			if (taken.size() < ShardBatch.MOST_PER_PART && !waitsForItsDone(add)) {
				taken.add(add);
			}
			else {
				kept.add(add);
			}
		}
		pending.addAll(kept);
		return counted(taken);
	}

	/** Counts out the awaited adds taken for a part. */
	private List<BatchRequest.Add> counted(List<BatchRequest.Add> taken) {
		for (BatchRequest.Add add : taken) {
			if (add.async == null) {
				this.awaitedAdds--;
			}
		}
		return taken;
	}

	/**
	 * Takes the dones for the shard's next part, none during its backoff; marks them
	 * sent.
	 */
	List<BatchRequest.Done> takeDones(int shard, long now) {
		if (!retryDue(shard, now)) {
			return List.of();
		}
		List<BatchRequest.Done> taken = takeUpTo(this.dones.get(shard));
		taken.forEach((done) -> done.sent = true);
		return taken;
	}

	/**
	 * The shard answered: a wait for its backoff ends now, and its next backoff starts
	 * again from the first.
	 */
	void answered(int shard, long now) {
		if (!retryDue(shard, now)) {
			this.retryAt[shard] = now;
		}
		this.backoffNanos[shard] = FIRST_BACKOFF_NANOS;
	}

	/**
	 * The shard's part failed: its dones to ask again go back to the head, in order, and
	 * wait for the shard's backoff, which doubles up to half a second.
	 */
	void retryLater(int shard, List<BatchRequest.Done> retry, long now) {
		for (int i = retry.size() - 1; i >= 0; i--) {
			// A later add of its thread waits again until it is sent again.
			retry.get(i).sent = false;
			this.dones.get(shard).addFirst(retry.get(i));
		}
		this.retryAt[shard] = now + this.backoffNanos[shard];
		this.backoffNanos[shard] = Math.min(this.backoffNanos[shard] * 2, LONGEST_BACKOFF_NANOS);
	}

	/** Whether the add's thread's done without waiting is not in a part yet. */
	private static boolean waitsForItsDone(BatchRequest.Add add) {
		return add.after != null && !add.after.sent;
	}

	private static <R> List<R> takeUpTo(ArrayDeque<R> pending) {
		List<R> taken = new ArrayList<>(Math.min(pending.size(), ShardBatch.MOST_PER_PART));
		while (!pending.isEmpty() && taken.size() < ShardBatch.MOST_PER_PART) {
			taken.add(pending.poll());
		}
		return taken;
	}

}
