package io.github.workqueue.core;

import java.util.List;

import org.jspecify.annotations.Nullable;

/**
 * Where the items that left a queue without success are kept ({@link DeadLetter}), to be
 * seen, requeued or dropped. A queue shared on Redis keeps them queue-wide, in Redis; the
 * worker container keeps those of an in-memory queue in the process, bounded.
 *
 * @param <T> the type of the items
 */
public interface DeadLetters<T> {

	/**
	 * Keeps an item that its worker gave up.
	 * @param item the item
	 * @param reason why, in words
	 * @param attempts the attempts made
	 * @param lastError the last failure, or {@code null}
	 */
	void deadLetter(T item, String reason, int attempts, @Nullable Throwable lastError);

	/**
	 * Lists the dead letters, newest first.
	 * @return the dead letters
	 */
	List<DeadLetter> deadLetters();

	/**
	 * Counts the dead letters kept now, which may be more than {@link #deadLetters()}
	 * lists. The default counts that list.
	 * @return their number
	 */
	default long deadLetterCount() {
		return deadLetters().size();
	}

	/**
	 * Counts the dead letters dropped, oldest first, to stay within the store's bound,
	 * since this object was made. Each drop is also logged. The default is 0.
	 * @return their number
	 */
	default long deadLettersDropped() {
		return 0;
	}

	/**
	 * Adds a dead letter's item to the queue again and forgets the dead letter.
	 * @param item the dead letter's {@link DeadLetter#item() item}
	 * @return false if there is no such dead letter
	 */
	boolean requeueDeadLetter(String item);

	/**
	 * Forgets a dead letter for good.
	 * @param item the dead letter's {@link DeadLetter#item() item}
	 * @return false if there is no such dead letter
	 */
	boolean dropDeadLetter(String item);

}
