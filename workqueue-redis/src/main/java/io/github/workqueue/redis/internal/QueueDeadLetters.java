package io.github.workqueue.redis.internal;

import java.lang.System.Logger.Level;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.LongAdder;

import io.github.workqueue.core.DeadLetter;
import io.github.workqueue.redis.RedisQueue;
import org.jspecify.annotations.Nullable;

import io.github.workqueue.redis.internal.shared.QueueViews;
import io.github.workqueue.redis.internal.shared.SharedDeadLetters;

import io.github.workqueue.redis.internal.batch.Batcher;

/**
 * Both kinds of a shared queue's dead letters: the items its workers gave up
 * ({@link SharedDeadLetters}, queue-wide, at most {@link SharedDeadLetters#CAPACITY}) and
 * the items Redis parked (redelivered too often, or not decodable; kept per shard). Lists
 * them, requeues or drops one, and counts those this instance pushed out of the store.
 *
 * <p>
 * <b>Concurrency.</b> Thread-safe: each operation is a script or a read on Redis, and the
 * count of dropped letters is a {@link LongAdder}.
 */
final class QueueDeadLetters {

	private static final System.Logger logger = System.getLogger(RedisQueue.class.getName());

	/** The most given-up dead letters {@link #list()} lists. */
	private static final int MOST_LISTED = 1000;

	private final String name;

	private final SharedDeadLetters givenUp;

	private final QueueViews views;

	private final Batcher batcher;

	private final LongAdder dropped = new LongAdder();

	QueueDeadLetters(String name, SharedDeadLetters givenUp, QueueViews views, Batcher batcher) {
		this.name = name;
		this.givenUp = givenUp;
		this.views = views;
		this.batcher = batcher;
	}

	/**
	 * Keeps a given-up item; the oldest are dropped past the capacity, with a warning.
	 */
	void keep(String encoded, String reason, int attempts, @Nullable Throwable lastError) {
		long pushedOut = this.givenUp.keep(encoded, reason, attempts, DeadLetter.describe(lastError));
		if (pushedOut > 0) {
			this.dropped.add(pushedOut);
			logger.log(Level.WARNING, "workqueue '" + this.name + "': more than " + SharedDeadLetters.CAPACITY
					+ " dead letters; dropped the oldest " + pushedOut);
		}
	}

	/**
	 * The items given up (newest first, at most 1,000 listed) and then the parked ones.
	 */
	List<DeadLetter> list() {
		List<DeadLetter> all = new ArrayList<>(this.givenUp.newest(MOST_LISTED));
		parked().forEach((encoded, why) -> all.add(new DeadLetter(encoded, "parked: " + why, 0, null, null)));
		return all;
	}

	/** The parked items and why each was parked, after this instance's dones. */
	Map<String, String> parked() {
		this.batcher.awaitDonesAsked();
		return this.views.parked();
	}

	/** How many dead letters this instance pushed out of the queue-wide store. */
	long dropped() {
		return this.dropped.sum();
	}

	/** Queues a dead letter again, parked or given up; false if there was none. */
	boolean requeue(String encoded) {
		if (requeueParked(encoded)) {
			return true;
		}
		if (!this.givenUp.drop(encoded)) {
			return false;
		}
		this.batcher.add(encoded);
		return true;
	}

	/** Forgets a dead letter, parked or given up; false if there was none. */
	boolean drop(String encoded) {
		return dropParked(encoded) || this.givenUp.drop(encoded);
	}

	boolean requeueParked(String encoded) {
		this.batcher.awaitDonesAsked();
		return this.views.unpark(encoded, true);
	}

	boolean dropParked(String encoded) {
		this.batcher.awaitDonesAsked();
		return this.views.unpark(encoded, false);
	}

}
