package io.github.workqueue.core;

import java.time.Instant;

import org.jspecify.annotations.Nullable;

/**
 * An item that left its queue without success: given up by its worker (after
 * {@code max-retries}, or failing with an exception marked not retryable), or, on Redis,
 * parked (its lease expired too many times in a row, or it cannot be decoded). Kept until
 * it is requeued or dropped, or until the store is full and it is the oldest.
 *
 * @param item the item: as stored by a shared queue (its encoding), else its
 * {@code toString()}; the key to requeue or drop it by
 * @param reason why it left, in words
 * @param attempts the attempts made, 0 where not counted (a parked item)
 * @param lastError the last failure, as class and message (at most 500 characters), or
 * {@code null}
 * @param at when it left, or {@code null} where not recorded (a parked item)
 */
public record DeadLetter(String item, String reason, int attempts, @Nullable String lastError, @Nullable Instant at) {

	/** The most characters of an error kept. */
	public static final int MOST_ERROR_CHARACTERS = 500;

	/**
	 * Describes a failure as kept: its class and message, at most
	 * {@value #MOST_ERROR_CHARACTERS} characters.
	 * @param failure the failure, or {@code null}
	 * @return the description, or {@code null} for none
	 */
	public static @Nullable String describe(@Nullable Throwable failure) {
		if (failure == null) {
			return null;
		}
		String text = failure.getClass().getName()
				+ ((failure.getMessage() != null) ? ": " + failure.getMessage() : "");
		return (text.length() > MOST_ERROR_CHARACTERS) ? text.substring(0, MOST_ERROR_CHARACTERS - 1) + "…" : text;
	}

}
