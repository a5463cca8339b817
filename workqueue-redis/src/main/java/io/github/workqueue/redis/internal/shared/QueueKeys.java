package io.github.workqueue.redis.internal.shared;

/**
 * The keys of one queue shard, all under one hash tag (see {@link Shards}) so that they
 * share a Redis Cluster slot; their order is the one {@code includes/state.lua} declares.
 * A script is given the first only ({@link #scriptKeys()}), and names the others after it
 * the same way: sending one key instead of fifteen saves encoding them on every call.
 * Immutable.
 */
public final class QueueKeys {

	private static final String[] SUFFIXES = { "queue", "dirty-since", "inflight", "leases", "waiting", "order",
			"failures", "expiries", "parked", "buckets", "wake", "counters", "ended", "ended-before", "traces" };

	private final String[] keys;

	/** The queue's key alone: the KEYS of every script. */
	private final String[] scriptKeys;

	/**
	 * Failed attempts per item since its last success; read and written by plain
	 * commands.
	 */
	private final String failedAttempts;

	/** Each instance's heartbeat; written and read by plain commands. */
	private final String instances;

	/**
	 * @param tag the shard's hash tag, without braces
	 */
	public QueueKeys(String tag) {
		String prefix = "{" + tag + "}:";
		this.failedAttempts = prefix + "attempts";
		this.instances = prefix + "instances";
		this.keys = new String[SUFFIXES.length];
		for (int i = 0; i < SUFFIXES.length; i++) {
			this.keys[i] = prefix + SUFFIXES[i];
		}
		this.scriptKeys = new String[] { this.keys[0] };
	}

	/**
	 * The KEYS of a script's call: the queue's key, after which the script names the
	 * others. The array is shared: not to be changed.
	 */
	public String[] scriptKeys() {
		return this.scriptKeys;
	}

	String queue() {
		return this.keys[0];
	}

	public String waiting() {
		return this.keys[4];
	}

	String failures() {
		return this.keys[6];
	}

	String failedAttempts() {
		return this.failedAttempts;
	}

	public String instances() {
		return this.instances;
	}

	String parked() {
		return this.keys[8];
	}

	public String wake() {
		return this.keys[10];
	}

	public String counters() {
		return this.keys[11];
	}

}
