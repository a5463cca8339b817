package io.github.workqueue.core;

import java.time.Duration;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.SortedMap;

import io.github.workqueue.core.internal.AddAllItems;
import io.github.workqueue.core.ratelimit.RateLimiter;

/**
 * A {@link DelayingQueue} whose retries are spaced by a {@link RateLimiter}.
 *
 * <p>
 * <b>Caller contract.</b> Call {@link #forget(Object)} once an item was processed
 * successfully (or given up), otherwise per-item limiters remember its failures forever:
 * its next failure waits longer than it should and the memory is never released. Forget
 * does not replace {@link #done(Object)}: both are needed.
 *
 * <p>
 * <b>Priorities and fairness.</b> Every item has a priority (an int, higher first): the
 * one given by {@link #add(Object, AddOptions)}, or the queue's default (0 unless
 * configured) for every other add. Ready items leave by priority, then in the order they
 * became ready. An item that is queued, waiting or being processed keeps the highest
 * priority of all its adds, so an item requeued by its worker keeps its priority unless
 * the re-add gives a higher one; an item done with no add pending leaves the queue and
 * its priority is forgotten. A queue built with a {@link FairnessKeyExtractor} serves,
 * among ready items of one priority, the items' fairness keys round-robin level by level
 * (a key just served goes to the back of its level). Dedup, one worker per item and
 * re-add while processing are unchanged; a queue whose adds all have one priority and
 * which has no fairness is the plain FIFO.
 *
 * <p>
 * <b>Concurrency.</b> Thread-safe, like {@link WorkQueue}; the limiter is called outside
 * the queue's lock and must be thread-safe itself.
 *
 * @param <T> the item type
 */
public interface RateLimitingQueue<T> extends DelayingQueue<T> {

	/**
	 * Adds the item after the delay its rate limiter gives: {@code addAfter(item,
	 * limiter.when(item))}, as one atomic operation.
	 * @param item the item, not null
	 * @return the delay the limiter gave (the limiter is asked even when the queue is
	 * shutting down and the add is dropped, as in client-go)
	 */
	Duration addRateLimited(T item);

	/**
	 * Clears the rate limiter's memory of the item. Does not call {@code done}.
	 * @param item the item
	 */
	void forget(T item);

	/**
	 * Returns how many times the item was requeued through the rate limiter since it was
	 * last forgotten.
	 * @param item the item
	 * @return the number of requeues
	 */
	int numRequeues(T item);

	/**
	 * Adds the item with options: a priority, a delay, rate-limiting, or several (see
	 * {@link AddOptions}). With no delay and no rate-limiting it is {@link #add(Object)}
	 * at the given priority; the item's priority is raised, never lowered, whether it is
	 * queued, waiting or being processed.
	 * @param item the item, not null
	 * @param options how to add it
	 */
	void add(T item, AddOptions options);

	/**
	 * Adds each item with the same options, as {@link #add(Object, AddOptions)} does, in
	 * the collection's order: each add is atomic on its own, the whole is not. A queue
	 * shared through Redis sends the adds without a delay or rate-limiting together, as
	 * {@link #addAll(Collection)} does.
	 * @param items the items, none null (checked before any is added)
	 * @param options how to add each of them
	 * @throws NullPointerException if the collection, one of its items or the options are
	 * null
	 */
	default void addAll(Collection<? extends T> items, AddOptions options) {
		Objects.requireNonNull(options, "options");
		for (T item : AddAllItems.checked(items)) {
			add(item, options);
		}
	}

	/**
	 * Like {@link #get()}, with the priority the item was queued at.
	 * @return the item and its priority, or empty if and only if the queue is shut down
	 * and has no queued item left
	 * @throws InterruptedException if interrupted before an item could be taken
	 */
	Optional<PrioritizedItem<T>> getWithPriority() throws InterruptedException;

	/**
	 * Like {@link #get(Duration)}, with the priority the item was queued at.
	 * @param timeout how long to wait at most
	 * @return the item and its priority, or empty when the timeout elapsed or the queue
	 * is shut down and drained
	 * @throws InterruptedException if interrupted while waiting
	 */
	Optional<PrioritizedItem<T>> getWithPriority(Duration timeout) throws InterruptedException;

	/**
	 * Returns the number of queued items per priority, highest first, only priorities
	 * that have queued items. Informational, like {@link #len()}.
	 * @return priority to number of queued items
	 */
	SortedMap<Integer, Integer> lenByPriority();

	/**
	 * Returns the number of queued items per first fairness key (the top level of the
	 * round-robin), over every priority. Informational, like {@link #len()}.
	 * @return first key to number of queued items, empty when the queue has no fairness
	 */
	Map<String, Integer> lenByFairnessKey();

	/**
	 * Returns the priority given to adds that do not name one.
	 * @return the default priority
	 */
	int defaultPriority();

	/**
	 * Returns the item's fairness keys, as the queue's {@link FairnessKeyExtractor} gives
	 * them.
	 * @param item the item
	 * @return its keys, empty when the queue has no fairness
	 */
	List<String> fairnessKeysOf(T item);

	/**
	 * Returns the rate limiter this queue uses.
	 * @return the rate limiter
	 */
	RateLimiter<? super T> rateLimiter();

}
