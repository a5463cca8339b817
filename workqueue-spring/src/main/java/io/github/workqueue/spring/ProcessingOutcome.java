package io.github.workqueue.spring;

import java.time.Duration;
import java.util.Objects;

import org.jspecify.annotations.Nullable;

/**
 * What became of one processing of an item by a {@code @QueueWorker} method, as its
 * container handled it before the item's {@code done}.
 *
 * <p>
 * <b>Concurrency.</b> Immutable.
 *
 * @param kind what became of the item
 * @param attempt for {@link Kind#RETRIED} and {@link Kind#GIVEN_UP}, which call of the
 * method on the item failed: 1 plus its failures in a row before it; 0 for the other
 * kinds (a method that returned does not have its attempts read, which on Redis is a
 * request)
 * @param delay how long until the item runs again, for {@link Kind#RETRIED} and
 * {@link Kind#REQUEUED_AFTER}, and for {@link Kind#REQUEUED} when the rate limiter said;
 * otherwise {@code null}
 * @param failure what the method threw, for {@link Kind#RETRIED} and
 * {@link Kind#GIVEN_UP}; otherwise {@code null}
 * @param giveUpReason why it was given up, for {@link Kind#GIVEN_UP}; otherwise
 * {@code null}
 */
public record ProcessingOutcome(Kind kind, int attempt, @Nullable Duration delay, @Nullable Throwable failure,
		@Nullable GiveUpReason giveUpReason) {

	public ProcessingOutcome {
		Objects.requireNonNull(kind, "kind");
	}

	/**
	 * Whether the container added the item again (a retry after a failure, or a result
	 * that asked for it).
	 * @return whether it runs again
	 */
	public boolean addedAgain() {
		return this.kind == Kind.RETRIED || this.kind == Kind.REQUEUED || this.kind == Kind.REQUEUED_AFTER;
	}

	/** What became of an item after its processing. */
	public enum Kind {

		/**
		 * The method returned {@link WorkResult#done()} (or nothing): the item is done.
		 */
		SUCCEEDED,

		/**
		 * The method returned {@link WorkResult#requeue()}: added again, rate limited.
		 */
		REQUEUED,

		/** The method returned {@link WorkResult#requeueAfter(Duration)}. */
		REQUEUED_AFTER,

		/** The method threw and the item is retried after the rate limiter's delay. */
		RETRIED,

		/** The item was given up and kept as a dead letter. */
		GIVEN_UP,

		/**
		 * The method was not called through to its end by this container: the item was
		 * abandoned at shutdown (it is in the shutdown report).
		 */
		ABANDONED

	}

}
