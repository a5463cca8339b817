package io.github.workqueue.redis.internal;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ConcurrentLinkedQueue;

import org.jspecify.annotations.Nullable;

/**
 * The parts of one instance's batches on their way to Redis, at most one per shard, and
 * those that landed (answered, failed or timed out) and wait for the sender to read them.
 * A flight stays a shard's flight until it is read, so that the shard's next part gathers
 * meanwhile.
 *
 * <p>
 * <b>Concurrency.</b> The shards' flights are guarded by the owning {@link BatchState}'s
 * monitor. The landed flights are a concurrent queue: a Lettuce thread adds to it without
 * the monitor ({@link #landed}), each flight once, by winning its
 * {@link Flight#handOver}.
 */
final class Flights {

	private final @Nullable Flight[] flying;

	private final ConcurrentLinkedQueue<Flight> landed = new ConcurrentLinkedQueue<>();

	Flights(int shards) {
		this.flying = new Flight[shards];
	}

	int shards() {
		return this.flying.length;
	}

	/** The shard's flight, or {@code null} if it has none. */
	@Nullable Flight of(int shard) {
		return this.flying[shard];
	}

	boolean isFree(int shard) {
		return this.flying[shard] == null;
	}

	/** A flight left (or could not be sent: then it landed at once). */
	void sent(Flight flight) {
		this.flying[flight.shard()] = flight;
		if (!flight.wasSent()) {
			this.landed.add(flight);
		}
	}

	/** A landed flight is being read: its shard is free for its next part. */
	void read(Flight flight) {
		if (this.flying[flight.shard()] == flight) {
			this.flying[flight.shard()] = null;
		}
	}

	/**
	 * A flight's reply came or failed; called without the monitor.
	 * @return whether it was handed over now (a flight is handed over once)
	 */
	boolean landed(Flight flight) {
		if (flight.handOver()) {
			this.landed.add(flight);
			return true;
		}
		return false;
	}

	/**
	 * Gives up on the flights past their deadline that have not landed: each lands as a
	 * timeout.
	 */
	void timeOutOverdue(long now) {
		for (Flight flight : this.flying) {
			if (flight != null && now - flight.deadlineNanos >= 0 && flight.handOver()) {
				flight.timeOut();
				this.landed.add(flight);
			}
		}
	}

	/** Whether some shard has no part on its way. */
	boolean anyFree() {
		for (Flight flight : this.flying) {
			if (flight == null) {
				return true;
			}
		}
		return false;
	}

	boolean anyLanded() {
		return !this.landed.isEmpty();
	}

	/** The flights that landed, for the sender to read, each once. */
	List<Flight> takeLanded() {
		List<Flight> read = new ArrayList<>();
		for (Flight flight; (flight = this.landed.poll()) != null;) {
			read.add(flight);
		}
		return read;
	}

	/** Whether a flight is on its way or waits to be read. */
	boolean any() {
		for (Flight flight : this.flying) {
			if (flight != null) {
				return true;
			}
		}
		return !this.landed.isEmpty();
	}

}
