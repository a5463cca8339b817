package io.github.workqueue.redis.internal.shared;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;

import io.github.workqueue.redis.QueueInstance;

import io.github.workqueue.redis.internal.link.RedisLink;

/**
 * The instances serving one queue, as their heartbeats say: each instance writes its own
 * field of one hash (what it holds and waits for, and when) about once a second, without
 * waiting for Redis; a reader lists them all and forgets those not seen for an hour (an
 * instance that died without its shutdown).
 *
 * <p>
 * <b>Concurrency.</b> Thread-safe: it keeps no state of its own.
 */
public final class InstanceHeartbeats {

	/**
	 * How long the heartbeat of an instance not seen is listed before it is forgotten.
	 */
	private static final Duration FORGET_AFTER = Duration.ofHours(1);

	private final RedisLink link;

	private final String key;

	private final String holder;

	public InstanceHeartbeats(RedisLink link, String key, String holder) {
		this.link = link;
		this.key = key;
		this.holder = holder;
	}

	/** Writes this instance's heartbeat, never waiting for Redis. */
	public void beat(int leases, int waitingInGet, int leasedAhead, boolean workersPaused) {
		this.link.hashSetQuietly(this.key, this.holder, System.currentTimeMillis() + " " + leases + " " + waitingInGet
				+ " " + leasedAhead + " " + (workersPaused ? "paused" : "taking"));
	}

	/** Removes this instance's heartbeat (at shutdown), never waiting for Redis. */
	public void stop() {
		this.link.hashDeleteQuietly(this.key, this.holder);
	}

	/** Every instance seen within the last hour, by holder name. */
	public List<QueueInstance> read() {
		Map<String, String> beats = this.link.hashGetAll(this.key);
		long forgetBefore = System.currentTimeMillis() - FORGET_AFTER.toMillis();
		List<QueueInstance> instances = new ArrayList<>();
		for (Map.Entry<String, String> beat : beats.entrySet()) {
			String[] fields = beat.getValue().split(" ");
			long seen = Long.parseLong(fields[0]);
			if (seen < forgetBefore) {
				this.link.hashDeleteQuietly(this.key, beat.getKey());
				continue;
			}
			// An instance of a version before the pause was written says nothing of it.
			boolean paused = fields.length > 4 && fields[4].equals("paused");
			instances.add(new QueueInstance(beat.getKey(), Integer.parseInt(fields[1]), Integer.parseInt(fields[2]),
					Integer.parseInt(fields[3]), paused, Instant.ofEpochMilli(seen)));
		}
		instances.sort(Comparator.comparing(QueueInstance::holder));
		return instances;
	}

}
