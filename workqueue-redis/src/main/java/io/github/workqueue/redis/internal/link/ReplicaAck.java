package io.github.workqueue.redis.internal.link;

import java.lang.System.Logger.Level;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.LongAdder;

import io.github.workqueue.core.metrics.CounterMetric;
import io.github.workqueue.redis.RedisQueue;
import io.github.workqueue.redis.UnreplicatedWriteException;
import org.jspecify.annotations.Nullable;

/**
 * A queue's {@code replicas-ack} setting and its record: how many replicas must confirm
 * each add and done (Redis {@code WAIT}) and for how long the caller waits for them; the
 * writes that fell short are counted, and logged once each time replication starts
 * falling short (and once when it confirms again), not once per write.
 *
 * <p>
 * Thread-safe.
 */
public final class ReplicaAck {

	private static final System.Logger logger = System.getLogger(RedisQueue.class.getName());

	private final String queue;

	private final int replicas;

	private final Duration timeout;

	private final LongAdder unreplicated = new LongAdder();

	private final @Nullable CounterMetric metric;

	private final AtomicBoolean fallingShort = new AtomicBoolean();

	/**
	 * @param queue the queue's name
	 * @param replicas how many replicas confirm each write; 0 asks none
	 * @param timeout how long a write waits for them
	 * @param metric counts the writes that fell short, or {@code null}
	 */
	public ReplicaAck(String queue, int replicas, Duration timeout, @Nullable CounterMetric metric) {
		this.queue = queue;
		this.replicas = replicas;
		this.timeout = timeout;
		this.metric = metric;
	}

	/** Whether writes wait for replicas. */
	public boolean isAsked() {
		return this.replicas > 0;
	}

	int replicas() {
		return this.replicas;
	}

	Duration timeout() {
		return this.timeout;
	}

	/** The writes so far that fewer replicas confirmed than asked. */
	public long unreplicated() {
		return this.unreplicated.sum();
	}

	/**
	 * Judges the replicas' answer to writes.
	 * @param confirmed how many replicas confirmed the writes, -1 if the wait failed
	 * @return {@code null} if enough did; otherwise the shortfall, of which the caller
	 * makes one {@link Shortfall#unreplicated exception} per write
	 */
	public @Nullable Shortfall judge(long confirmed) {
		boolean enough = confirmed >= this.replicas;
		if (enough) {
			if (this.fallingShort.compareAndSet(true, false)) {
				logger.log(Level.INFO, "workqueue '" + this.queue + "': " + confirmed
						+ " replicas confirm its writes again (replicas-ack " + this.replicas + ")");
			}
		}
		else if (this.fallingShort.compareAndSet(false, true)) {
			logger.log(Level.WARNING,
					"workqueue '" + this.queue + "': "
							+ ((confirmed < 0) ? "the wait for its replicas failed"
									: "only " + confirmed + " replicas confirmed its writes")
							+ " where replicas-ack asks " + this.replicas + " within " + this.timeout.toMillis()
							+ " ms; its adds and dones fail with UnreplicatedWriteException (and are counted) "
							+ "until enough replicas confirm them again");
		}
		return enough ? null : new Shortfall(this, confirmed);
	}

	/**
	 * Writes that fewer replicas confirmed than asked.
	 *
	 * @param ack the setting
	 * @param confirmed how many replicas confirmed them, -1 if the wait failed
	 */
	public record Shortfall(ReplicaAck ack, long confirmed) {

		/**
		 * Counts one of the writes and makes its caller's exception.
		 * @param operation what was written
		 * @param encoded the item, as stored
		 */
		public UnreplicatedWriteException unreplicated(String operation, String encoded) {
			this.ack.unreplicated.increment();
			if (this.ack.metric != null) {
				this.ack.metric.inc();
			}
			return new UnreplicatedWriteException(this.ack.queue, operation, encoded, this.ack.replicas, this.confirmed,
					this.ack.timeout);
		}

	}

}
