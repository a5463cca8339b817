package io.github.workqueue.redis;

import java.time.Duration;

import io.lettuce.core.RedisException;

/**
 * A write that the Redis master applied but that fewer replicas than the queue's
 * {@link RedisQueueBuilder#replicasAck(int) replicas-ack} setting confirmed within its
 * timeout: an add, a delayed or rate-limited add, or an accepted done. The master has it;
 * whether it survives the master's loss depends on whether a replica that has it is the
 * one promoted, which nobody can tell now. Counted
 * ({@code workqueue_unreplicated_writes_total}, {@link RedisQueue#unreplicatedWrites()}).
 *
 * <p>
 * For work queues, what to do is the same as after an {@link UnconfirmedAddException}: an
 * add can be made again (it joins the queued one, or runs the item once more after a
 * failover lost it); a done needs nothing (if a failover lost it, the item is delivered
 * again).
 */
public class UnreplicatedWriteException extends RedisException {

	private static final long serialVersionUID = 1L;

	private final String queue;

	private final String item;

	private final int replicasAsked;

	private final long replicasConfirmed;

	/**
	 * Creates the exception.
	 * @param queue the queue's name
	 * @param operation what was written ({@code add}, {@code addAfter}, {@code done}...)
	 * @param item the item as stored
	 * @param replicasAsked the queue's {@code replicas-ack}
	 * @param replicasConfirmed how many replicas confirmed the write in time (-1 if the
	 * wait itself failed)
	 * @param timeout the queue's {@code replicas-ack-timeout}
	 */
	public UnreplicatedWriteException(String queue, String operation, String item, int replicasAsked,
			long replicasConfirmed, Duration timeout) {
		super("workqueue '" + queue + "': the " + operation + " of " + item + " was applied by the Redis master, but "
				+ ((replicasConfirmed < 0) ? "the wait for its replicas failed"
						: "only " + replicasConfirmed + " of the " + replicasAsked + " replicas that replicas-ack asks")
				+ " confirmed it within replicas-ack-timeout (" + timeout.toMillis()
				+ " ms): it may or may not survive a failover");
		this.queue = queue;
		this.item = item;
		this.replicasAsked = replicasAsked;
		this.replicasConfirmed = replicasConfirmed;
	}

	/**
	 * Returns the name of the queue the write was for.
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

	/**
	 * Returns how many replicas the queue asks to confirm each write.
	 * @return the queue's {@code replicas-ack}
	 */
	public int replicasAsked() {
		return this.replicasAsked;
	}

	/**
	 * Returns how many replicas confirmed this write in time, or -1 if the wait for them
	 * failed.
	 * @return the replicas that confirmed it
	 */
	public long replicasConfirmed() {
		return this.replicasConfirmed;
	}

}
