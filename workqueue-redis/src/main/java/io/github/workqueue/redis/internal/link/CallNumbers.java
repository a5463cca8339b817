package io.github.workqueue.redis.internal.link;

import java.time.Duration;
import java.util.Arrays;
import java.util.UUID;

import io.lettuce.core.RedisCommandExecutionException;
import io.lettuce.core.RedisException;

/**
 * One sender's numbers for the calls that must run at most once
 * ({@code includes/once.lua} refuses a call whose number is not above the last that the
 * shard ran for the sender): an instance's adds of their own scripts
 * ({@link RedisLink#runOnce}), and a batcher's parts (its sender thread takes
 * {@link #next()} as it sends each). The sender's id is made here, once, and no other
 * sender (here, or after a restart) shares it.
 *
 * <p>
 * <b>Concurrency.</b> Thread-safe. The monitor guards {@code last}, and {@link RedisLink}
 * holds it while it hands a call to Lettuce, so that the numbers leave on the connection
 * in increasing order; it is never held across a wait for Redis.
 */
public final class CallNumbers {

	/** The start of a script's error reply to a repeated call. */
	private static final String REFUSAL = "REPEATED_CALL";

	private final String sender = UUID.randomUUID().toString();

	/** The number of the last call sent; guarded by the monitor. */
	private long last;

	/**
	 * Whether a script refused to run a call because it ran it, or a later call of the
	 * same sender, already: Redis may have applied the call (once), and changed nothing
	 * now.
	 */
	public static boolean isRepeatRefusal(RedisException failure) {
		return failure instanceof RedisCommandExecutionException && failure.getMessage() != null
				&& failure.getMessage().startsWith(REFUSAL);
	}

	/** The sender's id, which the scripts key its last number by. */
	public String sender() {
		return this.sender;
	}

	/** The next number; the caller sends the call carrying it before any later one. */
	public synchronized long next() {
		return ++this.last;
	}

	/**
	 * How long Redis keeps a sender's last number: well past the last moment Lettuce may
	 * send a call again (a call is given up, and cancelled, after the command timeout).
	 */
	static long memoryMillis(Duration commandTimeout) {
		return commandTimeout.multipliedBy(2).plusMinutes(1).toMillis();
	}

	/**
	 * The arguments followed by the sender's id, the next number and the memory; called
	 * under the monitor, by the thread that then hands the call to Lettuce before it
	 * releases it.
	 */
	String[] numbered(String[] args, Duration commandTimeout) {
		String[] numbered = Arrays.copyOf(args, args.length + 3);
		numbered[args.length] = this.sender;
		numbered[args.length + 1] = Long.toString(next());
		numbered[args.length + 2] = Long.toString(memoryMillis(commandTimeout));
		return numbered;
	}

}
