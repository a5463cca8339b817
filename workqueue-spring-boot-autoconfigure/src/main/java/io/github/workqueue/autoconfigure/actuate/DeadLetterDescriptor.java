package io.github.workqueue.autoconfigure.actuate;

import org.jspecify.annotations.Nullable;

/**
 * An item that left its queue without success.
 *
 * @param item the item, as stored (Redis) or as text: the key to requeue or drop it by
 * @param reason why it left
 * @param attempts the attempts made, 0 where not counted (parked)
 * @param lastError the last failure's class and message, or {@code null}
 * @param atMillis when it left, in milliseconds since the epoch, or {@code null} where
 * not recorded (parked)
 */
public record DeadLetterDescriptor(String item, String reason, int attempts, @Nullable String lastError,
		@Nullable Long atMillis) {

}
