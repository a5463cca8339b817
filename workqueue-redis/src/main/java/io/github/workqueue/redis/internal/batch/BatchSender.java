package io.github.workqueue.redis.internal.batch;

import java.lang.System.Logger.Level;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.locks.LockSupport;
import java.util.function.Supplier;

import io.github.workqueue.redis.RedisQueue;
import io.lettuce.core.ScriptOutputType;
import org.jspecify.annotations.Nullable;

import io.github.workqueue.redis.internal.link.CallNumbers;
import io.github.workqueue.redis.internal.link.RedisLink;
import io.github.workqueue.redis.internal.link.ReplicaAck;
import io.github.workqueue.redis.internal.link.Script;
import io.github.workqueue.redis.internal.link.SentScript;

import io.github.workqueue.redis.internal.shared.Shards;

/**
 * The {@link Batcher}'s sender: one thread that makes the batches from what the callers
 * asked, sends each shard's part without waiting for its reply, and reads the replies
 * (completes the adds and dones, hands out the grants, retries the dones of a part that
 * failed); it also passes on the hints that found no taker here. It starts when there is
 * something to send and ends when the batcher is shutting down and no add, done or sent
 * part is left; a later add or done starts it again. What to do next is the shared
 * state's to say ({@link BatchState#nextStep}).
 *
 * <p>
 * After a batch answered the dones of threads that took their lease themselves, the next
 * batch waits for those threads, until each has asked again or 200 µs passed, to carry
 * their requests together (most ask for their next item at once); unless an add whose
 * caller waits for it is pending, which the linger would hold.
 *
 * <p>
 * <b>Concurrency.</b> The state it shares with the callers is a {@link BatchState}, whose
 * monitor it never takes itself; it parks outside it, and whoever gives it something to
 * do unparks it. The fields here are the sender thread's own, but for those marked. The
 * replies are read on the sender ({@link BatchReplies}).
 */
final class BatchSender implements SenderWakes.Sender {

	private static final System.Logger logger = System.getLogger(RedisQueue.class.getName());

	private final BatchState state;

	private final String name;

	private final RedisLink link;

	private final Shards shards;

	private final Supplier<String> now;

	/** How many replicas confirm a batch of adds and dones before their callers hear. */
	private final ReplicaAck ack;

	private final BatchReplies replies;

	/**
	 * holder, lease, most expiries, ended lease memory, this sender's id: ARGV 2 to 6 of
	 * every batch. The memory is set before a batch, when the command timeout it derives
	 * from changed ({@link #endedMemory}). The id is the parts' numbers' own, which no
	 * other sender (here, or after a restart) shares.
	 */
	private final String[] fixedArgs;

	/** The parts' numbers: each part sent gets the next ({@link ShardBatch#args}). */
	private final CallNumbers partNumbers = new CallNumbers();

	/** The command timeout the ended lease memory in {@code fixedArgs} was made for. */
	private @Nullable Duration endedMemoryFor;

	/** How long a done keeps being asked ({@link Batcher#askingTime()}). */
	private final Duration askingTime;

	/**
	 * The sender thread while it runs: for unparking, and the stall watchdog's report.
	 */
	private volatile @Nullable Thread thread;

	/**
	 * When the sender went off to read replies or send a batch, or 0 while it waits for
	 * work: a sender busy for long is stalled ({@link #stalledFor}).
	 */
	private volatile long busySince;

	/**
	 * @param now the time as Redis's scripts take it
	 * @param fixedArgs holder, lease in microseconds, most expiries
	 * @param askingTime how long a done keeps being asked
	 */
	BatchSender(BatchState state, String name, RedisLink link, Shards shards, Supplier<String> now, String[] fixedArgs,
			Duration askingTime, BatchReplies replies, ReplicaAck ack) {
		this.state = state;
		this.name = name;
		this.link = link;
		this.shards = shards;
		this.ack = ack;
		this.replies = replies;
		this.now = now;
		this.fixedArgs = Arrays.copyOf(fixedArgs, ShardBatch.FIXED_ARGS);
		this.fixedArgs[4] = this.partNumbers.sender();
		this.askingTime = askingTime;
	}

	/** Wakes the sender, if it runs. */
	@Override
	public void unpark() {
		Thread current = this.thread;
		if (current != null) {
			LockSupport.unpark(current);
		}
	}

	/**
	 * Starts a sender thread. Called by the state, which knows that none runs, under its
	 * monitor.
	 */
	@Override
	public void start() {
		Thread started = new Thread(this::run, "workqueue-redis-" + this.name + "-batches");
		started.setDaemon(true);
		started.start();
	}

	/**
	 * How long the sender has been busy reading replies or sending a batch, if longer
	 * than {@code thresholdNanos}: it never waits for Redis but within a bound, so that
	 * means it is stuck.
	 * @return the time it has been busy, or empty if it is not stalled
	 */
	Optional<Duration> stalledFor(long thresholdNanos) {
		long since = this.busySince;
		long busy = System.nanoTime() - since;
		return (since != 0 && busy > thresholdNanos) ? Optional.of(Duration.ofNanos(busy)) : Optional.empty();
	}

	/** The sender thread's stack, for the stall report; empty when none runs. */
	StackTraceElement[] stack() {
		Thread current = this.thread;
		return (current != null) ? current.getStackTrace() : new StackTraceElement[0];
	}

	private void run() {
		this.thread = Thread.currentThread();
		try {
			BatchState.SenderStep step;
			while (!(step = this.state.nextStep()).end()) {
				for (int shard : step.passOn()) {
					this.link.pushHint(this.shards.keys(shard).wake());
				}
				if (step.landed().isEmpty() && step.batch() == null) {
					park(step.parkNanos());
					continue;
				}
				this.busySince = System.nanoTime() | 1;
				for (SentPart sentPart : step.landed()) {
					if (this.replies.read(sentPart)) {
						this.state.lingerAfterReply();
					}
				}
				if (step.batch() != null) {
					launch(step.batch());
				}
				this.busySince = 0;
			}
		}
		catch (InterruptedException ex) {
			// Nobody interrupts this thread; if it happens, a later request restarts it.
		}
		catch (RuntimeException ex) {
			logger.log(Level.ERROR,
					"workqueue '" + this.name + "': the thread that sends batches to Redis failed; another takes over",
					ex);
		}
		catch (Error ex) {
			logger.log(Level.ERROR, "workqueue '" + this.name + "': the thread that sends batches to Redis failed", ex);
			throw ex;
		}
		finally {
			this.busySince = 0;
			this.thread = null;
			this.state.senderEnded();
		}
	}

	/**
	 * Parks the sender, lingering for the awaited threads or idle until there is
	 * something to do: whoever gives it something to do unparks it (a request, an awaited
	 * thread's arrival, a landing, a hint), so that a hand-off costs one wake-up.
	 * @param nanos how long at most, {@code Long.MAX_VALUE} for no limit
	 */
	private void park(long nanos) throws InterruptedException {
		if (nanos == Long.MAX_VALUE) {
			LockSupport.park(this);
		}
		else {
			LockSupport.parkNanos(this, nanos);
		}
		if (Thread.interrupted()) {
			throw new InterruptedException();
		}
	}

	/**
	 * How long Redis remembers a lease that a done ended, or that a done was rejected
	 * for: the asking time and two command timeouts, so that a done's last attempt, which
	 * Redis runs within a command timeout of its sending if it answers it, still finds
	 * the first attempt's record.
	 */
	private Duration endedMemory(Duration replyTimeout) {
		return this.askingTime.plus(replyTimeout.multipliedBy(2));
	}

	/**
	 * Sends each part of a batch to its shard, all together, without waiting for the
	 * replies: each comes back through {@link BatchState#landed}.
	 */
	private void launch(List<BatchPlanner.Part> batch) {
		String now = this.now.get();
		Duration replyTimeout = this.link.replyTimeout();
		if (!replyTimeout.equals(this.endedMemoryFor)) {
			this.endedMemoryFor = replyTimeout;
			this.fixedArgs[3] = Long.toString(endedMemory(replyTimeout).toNanos() / 1000);
		}
		long sentNanos = System.nanoTime();
		List<SentPart> sent = new ArrayList<>(batch.size());
		for (BatchPlanner.Part planned : batch) {
			ShardBatch part = planned.part();
			SentPart sentPart;
			try {
				SentScript<List<Object>> script = this.link.send(Script.BATCH, ScriptOutputType.MULTI,
						this.shards.keys(part.shard()).scriptKeys(),
						(part.hasWrites() && this.ack.isAsked()) ? this.ack : null,
						part.args(now, this.fixedArgs, this.partNumbers.next()));
				sentPart = SentPart.sent(part, planned.takers(), sentNanos, script);
			}
			catch (RuntimeException ex) {
				// Not connected, or the client was shut down: a failure like any other.
				sentPart = SentPart.notSent(part, planned.takers(), sentNanos, ex);
			}
			sent.add(sentPart);
		}
		this.state.sent(sent);
		for (SentPart sentPart : sent) {
			sentPart.whenAnswered(() -> this.state.landed(sentPart));
		}
	}

}
