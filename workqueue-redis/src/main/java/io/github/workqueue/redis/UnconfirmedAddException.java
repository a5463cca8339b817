package io.github.workqueue.redis;

import io.lettuce.core.RedisException;
import org.jspecify.annotations.Nullable;

/**
 * An add ({@code add}, {@code addAfter}, {@code addRateLimited} or one with options) that
 * got no answer from Redis: it was sent, and may or may not have been applied (a timeout,
 * a connection lost after the request left). Distinct from a refusal, which Redis answers
 * with an error ({@link io.lettuce.core.RedisCommandExecutionException}) and which was
 * not applied, and from a failure to connect, which sent nothing.
 *
 * <p>
 * Retrying is safe for level-triggered work, which is what a work queue holds: an add of
 * an item already queued is absorbed, and at worst the item is processed once more. Do
 * not report such an add as certainly failed, nor compensate for it as if it were.
 */
public class UnconfirmedAddException extends RedisException {

	private static final long serialVersionUID = 1L;

	private final String queue;

	private final String item;

	/**
	 * Creates the exception.
	 * @param queue the queue's name
	 * @param item the item as stored
	 * @param why what happened to the request
	 * @param cause the failure that ended the wait, or {@code null} if the wait timed out
	 */
	public UnconfirmedAddException(String queue, String item, String why, @Nullable Throwable cause) {
		super("workqueue '" + queue + "': " + why + " to the add of " + item + "; the add may have been applied",
				cause);
		this.queue = queue;
		this.item = item;
	}

	/**
	 * Returns the name of the queue the add was for.
	 * @return the queue's name
	 */
	public String queue() {
		return this.queue;
	}

	/**
	 * Returns the item, as stored.
	 * @return the encoded item
	 */
	public String item() {
		return this.item;
	}

}
