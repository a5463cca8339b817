package io.github.workqueue.redis.internal;

import java.lang.System.Logger.Level;
import java.time.Duration;
import java.util.function.Consumer;

import io.github.workqueue.redis.DoneResult;
import io.github.workqueue.redis.LateDoneOutcome;
import io.github.workqueue.redis.RedisQueue;
import org.jspecify.annotations.Nullable;

import io.github.workqueue.redis.internal.link.RedisLink;

/**
 * Tells what became of a {@code done} whose outcome the caller did not wait for, or
 * waited for in vain: a rejection is logged at WARN; a done that got no answer in time is
 * logged, then its final outcome, once known, is logged, counted, handed to the queue's
 * late-done listener and completes the lease's outcome, in that order.
 *
 * <p>
 * <b>Concurrency.</b> Thread-safe: it keeps no state of its own; each lease's outcome is
 * completed once.
 */
final class DoneReports {

	private static final System.Logger logger = System.getLogger(RedisQueue.class.getName());

	private final String name;

	private final RedisLink link;

	private final @Nullable RedisQueueMetrics metrics;

	private final Consumer<? super LateDoneOutcome> lateDoneListener;

	DoneReports(String name, RedisLink link, @Nullable RedisQueueMetrics metrics,
			Consumer<? super LateDoneOutcome> lateDoneListener) {
		this.name = name;
		this.link = link;
		this.metrics = metrics;
		this.lateDoneListener = lateDoneListener;
	}

	/**
	 * The outcome of a done that did not wait for it. Runs on the sender thread, which it
	 * does not hold up: an accepted done's lease outcome is completed here when nothing
	 * depends on it yet, everything else on a helper thread.
	 */
	void answered(HeldLease lease, @Nullable Boolean accepted) {
		if (Boolean.TRUE.equals(accepted) && lease.outcome.getNumberOfDependents() == 0) {
			lease.outcome.complete(DoneResult.ACCEPTED);
			return;
		}
		this.link.helpers().execute(() -> {
			if (accepted == null) {
				answeredLate(lease, null);
				return;
			}
			if (!accepted) {
				rejected(lease);
			}
			lease.outcome.complete(accepted ? DoneResult.ACCEPTED : DoneResult.REJECTED);
		});
	}

	/** A done was rejected: its lease had expired. */
	void rejected(HeldLease lease) {
		logger.log(Level.WARNING, "workqueue '" + this.name + "': done of " + lease.encoded + " rejected: its lease "
				+ lease.token + " had expired, so the item was delivered again and may have been processed twice");
	}

	/** A done got no answer in time; it is asked again for {@code askingTime}. */
	void noAnswerYet(HeldLease lease, Duration askingTime) {
		logger.log(Level.WARNING,
				"workqueue '" + this.name + "': no answer yet from Redis to the done of " + lease.encoded + " (lease "
						+ lease.token + "); it may have been applied. Asking again until Redis answers, for up to "
						+ askingTime.toMillis() + " ms; the outcome will be logged");
	}

	/**
	 * Reports, once, the final outcome of a done that got no answer in time: the log, the
	 * counter, the listener, then the lease's outcome. Runs on a helper thread.
	 * @param accepted whether Redis accepted the token, or {@code null} if that will
	 * never be known
	 */
	void answeredLate(HeldLease lease, @Nullable Boolean accepted) {
		DoneResult result = (accepted == null) ? DoneResult.NO_ANSWER
				: (accepted ? DoneResult.ACCEPTED : DoneResult.REJECTED);
		String done = "workqueue '" + this.name + "': the done of " + lease.encoded + " (lease " + lease.token + ")";
		switch (result) {
			case ACCEPTED -> logger.log(Level.INFO,
					done + ", which got no answer in time, was applied: the item is not delivered again");
			case REJECTED -> logger.log(Level.WARNING, done + ", which got no answer in time, was rejected: "
					+ "its lease had expired, so the item was delivered again and may have been processed twice");
			case NO_ANSWER -> logger.log(Level.WARNING, done + " was never answered while Redis could still tell "
					+ "whether it was applied; if it was not, its lease expired and the item was delivered again");
		}
		if (this.metrics != null) {
			this.metrics.answeredLate(result);
		}
		try {
			this.lateDoneListener.accept(new LateDoneOutcome(this.name, lease.item, lease, result));
		}
		catch (RuntimeException ex) {
			logger.log(Level.ERROR, "workqueue '" + this.name + "': the late-done listener failed", ex);
		}
		// Last, so that whoever waits for the outcome finds it logged, counted and told.
		lease.outcome.complete(result);
	}

}
