package io.github.workqueue.redis.internal.batch;

import java.util.HashSet;
import java.util.Set;
import java.util.concurrent.TimeUnit;

import org.jspecify.annotations.Nullable;

/**
 * When a {@link Batcher}'s sender (a {@link Sender}) is started or woken, and how long it
 * lingers before a batch for the threads whose dones the last batch answered (each is
 * likely to ask for its next lease at once, and then rides in the same batch).
 *
 * <p>
 * <b>Concurrency.</b> Not thread-safe: guarded by the monitor of the {@link BatchState}
 * that owns it, except {@link #unpark()}, which a landing calls without the monitor and
 * which reads only the sender, set once by {@link #attach} before the first request.
 */
final class SenderWakes {

	/**
	 * How long the sender lingers for the threads whose dones the last batch answered.
	 */
	private static final long LINGER_NANOS = TimeUnit.MICROSECONDS.toNanos(200);

	private final SentParts sentParts;

	/**
	 * Threads whose done the last batch answered and that took their lease themselves:
	 * the next batch waits for them, until each has asked or {@link #LINGER_NANOS}
	 * passed.
	 */
	private final Set<Thread> awaited = new HashSet<>();

	private long lingerUntil;

	/**
	 * The sender parked, or is about to, until the linger ends: it wakes by itself then
	 * and sends what came meanwhile.
	 */
	private boolean lingering;

	/** Whether a sender thread runs (or was started). */
	private boolean running;

	private @Nullable Sender sender;

	SenderWakes(SentParts sentParts) {
		this.sentParts = sentParts;
	}

	/** Names the sender this starts and wakes. */
	void attach(Sender sender) {
		this.sender = sender;
	}

	/**
	 * The calling thread asked for something: the sender no longer waits for it, and
	 * stops lingering once none is awaited.
	 */
	void arrived() {
		if (this.awaited.remove(Thread.currentThread()) && this.awaited.isEmpty()) {
			unpark();
		}
	}

	/**
	 * A done went for a thread that took its lease itself: the next batch waits for it.
	 */
	void awaits(Thread requester) {
		this.awaited.add(requester);
	}

	/** A reply was read: the next batch lingers for the threads it answered. */
	void lingerAfterReply() {
		this.lingerUntil = System.nanoTime() + LINGER_NANOS;
	}

	/** Whether the next batch waits for a thread the last one answered. */
	boolean awaitsAny() {
		return !this.awaited.isEmpty();
	}

	/**
	 * How long the sender lingers before the next batch, 0 for not at all; records
	 * whether it lingers now.
	 * @param ready whether the next batch would carry anything
	 * @param noLinger whether it must not linger: no thread is awaited, or a caller waits
	 * for an add while takers wait (their asks ride in this batch, and a linger would
	 * hold that caller)
	 */
	long lingerNanos(long now, boolean ready, boolean noLinger) {
		long lingerNanos = noLinger ? 0 : this.lingerUntil - now;
		this.lingering = ready && lingerNanos > 0;
		return lingerNanos;
	}

	/** A batch is made: the threads it lingered for are no longer awaited. */
	void batchMade() {
		this.awaited.clear();
	}

	/** The sender ended, or is about to. */
	void senderEnded() {
		this.running = false;
	}

	boolean senderRunning() {
		return this.running;
	}

	void unpark() {
		Sender current = this.sender;
		if (current != null) {
			current.unpark();
		}
	}

	/** Starts the sender if none runs, or wakes it. */
	void wakeSender() {
		if (this.running) {
			unpark();
			return;
		}
		this.running = true;
		if (this.sender != null) {
			this.sender.start();
		}
	}

	/**
	 * Starts the sender if none runs, or wakes it for a request to the given shard unless
	 * it would find nothing to do: while the shard has as many parts on their way as it
	 * may, the request waits for the next part, and a landing (or a sent part's deadline)
	 * wakes the sender; while the sender lingers it wakes by itself when the linger ends.
	 * A request that woke the sender for nothing cost a park and an unpark per request.
	 */
	void wakeFor(int shard) {
		if (!this.running || (this.sentParts.isFree(shard) && !this.lingering)) {
			wakeSender();
		}
	}

	/**
	 * Starts the sender if none runs, or wakes it for a lease ask unless it would find
	 * nothing to do: every shard has as many parts on their way as it may, or it lingers.
	 */
	void wakeForLeases() {
		if (!this.running || (this.sentParts.anyFree() && !this.lingering)) {
			wakeSender();
		}
	}

	/**
	 * What this starts and wakes: the batcher's one sending thread. An interface, so that
	 * the state that decides when it runs does not depend on the thread that runs.
	 */
	interface Sender {

		/** Starts a sending thread; called only when none runs. */
		void start();

		/** Wakes the sending thread if it is parked, or makes its next park return. */
		void unpark();

	}

}
