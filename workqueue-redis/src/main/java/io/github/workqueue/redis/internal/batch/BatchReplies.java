package io.github.workqueue.redis.internal.batch;

import java.lang.System.Logger.Level;
import java.util.ArrayList;
import java.util.List;

import io.github.workqueue.redis.RedisQueue;
import io.github.workqueue.redis.UnconfirmedAddException;
import io.lettuce.core.RedisCommandExecutionException;
import io.lettuce.core.RedisException;
import org.jspecify.annotations.Nullable;

import io.github.workqueue.redis.internal.link.CallNumbers;
import io.github.workqueue.redis.internal.link.OutageLog;
import io.github.workqueue.redis.internal.link.RedisLink;
import io.github.workqueue.redis.internal.link.ReplicaAck;
import io.github.workqueue.redis.internal.link.WakeHints;

import io.github.workqueue.redis.internal.shared.Shards;

/**
 * Reads the replies to a {@link Batcher}'s parts, on its sender: completes the adds and
 * dones, hands each grant to the first taker still waiting, else to the buffer while it
 * has room, else back to Redis at once (its item returns to the head of the queue, not
 * counted as a redelivery); after a failure, fails the adds and queues the dones for a
 * retry after the shard's backoff; when every shard in a row had too few leases for the
 * takers, listens for a hint from each.
 *
 * <p>
 * Through an outage, adds fail at once (the caller sees the exception, as with any Redis
 * command); dones are asked again with backoff, per shard, until Redis answers or their
 * last attempt is due, after their caller stopped waiting too.
 *
 * <p>
 * <b>Concurrency.</b> The shared state is a {@link BatchState}, whose monitor this class
 * never takes itself. {@link #read} runs on the sender only; a hint's end
 * ({@link #hintEnded}) on a Lettuce thread. A taker is served by the state
 * ({@link Taker#claim}) and its thread woken here, once the state's monitor is left
 * ({@link Taker#wake}), so that the woken worker, which asks for the monitor at once for
 * its done and its next take, does not find it held by the serving.
 */
final class BatchReplies {

	private static final System.Logger logger = System.getLogger(RedisQueue.class.getName());

	private final BatchState state;

	private final String name;

	private final RedisLink link;

	private final Shards shards;

	private final LeaseReturns returns;

	/** One listener per shard. */
	private final List<WakeHints> hints;

	/**
	 * Per shard, where its parts' second tries run: one at a time, in the order the parts
	 * were read, which is the order they were sent.
	 */
	private final List<InOrderExecutor> secondTries;

	private final OutageLog outage;

	private final ReplicaAck ack;

	BatchReplies(BatchState state, String name, RedisLink link, Shards shards, LeaseReturns returns,
			List<WakeHints> hints, OutageLog outage, ReplicaAck ack) {
		this.state = state;
		this.name = name;
		this.link = link;
		this.shards = shards;
		this.returns = returns;
		this.hints = hints;
		List<InOrderExecutor> executors = new ArrayList<>(shards.count());
		for (int shard = 0; shard < shards.count(); shard++) {
			executors.add(new InOrderExecutor(link.helpers()));
		}
		this.secondTries = List.copyOf(executors);
		this.outage = outage;
		this.ack = ack;
	}

	/**
	 * Reads a sent part that landed: completes its adds and dones and hands out its
	 * grants, or, if it failed, fails its adds and queues its dones for a retry.
	 * @return whether a reply was read (not a failure, nor a part sent again)
	 */
	boolean read(SentPart sentPart) {
		this.state.reading(sentPart);
		if (sentPart.wantsSecondTry()) {
			// The server lacked the library (a new or promoted master) or refused
			// functions: mended off this thread, so that no other shard waits for it,
			// after the second try of the shard's part before it, if it had one.
			SentPart second = sentPart.secondTry(this.secondTries.get(sentPart.shard()));
			this.state.sentAgain(second);
			second.whenAnswered(() -> this.state.landed(second));
			return false;
		}
		this.state.leasesAheadAnswered(sentPart);
		List<Object> reply;
		try {
			reply = sentPart.reply();
		}
		catch (RuntimeException ex) {
			RedisException failure = (ex instanceof RedisException redis) ? redis : new RedisException(ex);
			// Redis applies nothing of a script it answers with an error, nor of one that
			// was not sent; but a part refused as a repeat may have been applied before.
			failed(sentPart.part, failure, sentPart.wasSent()
					&& (!(failure instanceof RedisCommandExecutionException) || CallNumbers.isRepeatRefusal(failure)));
			settleAdds(sentPart.part);
			sentPart.takers.forEach(Taker::tried);
			return false;
		}
		this.outage.succeeded();
		this.state.shardAnswered(sentPart);
		boolean answered;
		try {
			answered = complete(sentPart, reply, fellShort(sentPart));
		}
		catch (RuntimeException ex) {
			// A reply this code cannot read: the part's callers must not wait forever.
			logger.log(Level.ERROR, "workqueue '" + this.name + "': a batch failed", ex);
			abandon(sentPart.part, new RedisException(ex));
			answered = true;
		}
		settleAdds(sentPart.part);
		if (answered) {
			sentPart.takers.forEach(Taker::tried);
		}
		return true;
	}

	/**
	 * How far the replicas fell short of confirming the sent part's writes, or
	 * {@code null} if they did not or none were asked.
	 */
	private ReplicaAck.@Nullable Shortfall fellShort(SentPart sentPart) {
		return (sentPart.part.hasWrites() && this.ack.isAsked()) ? this.ack.judge(sentPart.confirmedReplicas()) : null;
	}

	/**
	 * Completes a shard's adds and dones and hands out its grants. A shard that had too
	 * few leases for the takers the sent part asked for counts towards each taker's tries
	 * ({@link Taker#answeredShort}).
	 * @param shortOf how far the replicas fell short of confirming the writes, or
	 * {@code null}
	 * @return whether the shard had the leases asked for the takers (then those that
	 * still wait were tried)
	 */
	private boolean complete(SentPart sentPart, List<Object> reply, ReplicaAck.@Nullable Shortfall shortOf) {
		ShardBatch part = sentPart.part;
		ShardBatch.Answer answer = part.complete(reply, sentPart.sentNanos, shortOf);
		if (part.wanted() == 0) {
			return true;
		}
		List<Grant> grants = answer.grants();
		BatchState.Served outcome;
		List<Taker> served = new ArrayList<>(grants.size());
		try {
			outcome = this.state.serveGrants(sentPart, grants, answer.nextEventMicros(), this.shards.count(), served);
		}
		finally {
			served.forEach(Taker::wake);
		}
		this.returns.giveBackUntaken(outcome.unclaimed());
		if (grants.size() >= sentPart.takers.size()) {
			return true;
		}
		if (outcome.allShort()) {
			for (int shard = 0; shard < this.hints.size(); shard++) {
				int hinted = shard;
				this.hints.get(shard).listen((popped) -> hintEnded(hinted, popped));
			}
		}
		return false;
	}

	/**
	 * A blocking pop ended: a hint wakes the takers' next batch; a hint that finds no
	 * taker here is passed on to another instance, by the sender.
	 */
	private void hintEnded(int shard, boolean popped) {
		if (popped) {
			this.state.hinted(shard);
		}
	}

	/**
	 * Hands the outcomes of a part's adds whose callers did not wait to those callers, on
	 * a helper thread: what they run next must not hold up this one.
	 */
	private void settleAdds(ShardBatch part) {
		List<BatchRequest.Add> unwaited = null;
		for (BatchRequest.Add add : part.adds()) {
			if (add.async != null) {
				if (unwaited == null) {
					unwaited = new ArrayList<>();
				}
				unwaited.add(add);
			}
		}
		if (unwaited != null) {
			List<BatchRequest.Add> settled = unwaited;
			this.link.helpers().execute(() -> settled.forEach(BatchRequest.Add::settle));
		}
	}

	/**
	 * Ends every request of a part whose reply could not be read: adds fail, dones report
	 * no answer. A request already completed keeps its outcome.
	 */
	private void abandon(ShardBatch part, RedisException ex) {
		for (BatchRequest.Add add : part.adds()) {
			add.complete(false, unconfirmed(add, "an unreadable reply from Redis", ex));
		}
		for (BatchRequest.Done done : part.dones()) {
			done.complete(null);
		}
	}

	private UnconfirmedAddException unconfirmed(BatchRequest.Add add, String why, RedisException cause) {
		return new UnconfirmedAddException(this.name, add.encoded, why + " (" + cause.getMessage() + ")", cause);
	}

	/**
	 * A shard's part failed: its adds fail, its dones wait for a retry after the shard's
	 * backoff, until their last attempt is due (or the connection was closed: then their
	 * outcome will never be known). A done's interrupted caller stops waiting.
	 * @param maybeApplied whether Redis may have run the part: its adds then fail with an
	 * {@link UnconfirmedAddException}
	 */
	private void failed(ShardBatch part, RedisException ex, boolean maybeApplied) {
		this.outage.failed(ex);
		boolean closed = this.link.isClosed();
		String why = CallNumbers.isRepeatRefusal(ex) ? "sent again after a lost connection, and not run again"
				: "no answer from Redis";
		for (BatchRequest.Add add : part.adds()) {
			add.complete(false, maybeApplied ? unconfirmed(add, why, ex) : ex);
		}
		List<BatchRequest.Done> retry = new ArrayList<>();
		long now = System.nanoTime();
		for (BatchRequest.Done done : part.dones()) {
			if (now - done.askUntilNanos > 0 || closed) {
				done.complete(null);
			}
			else {
				if (done.requester.isInterrupted()) {
					done.release();
				}
				retry.add(done);
			}
		}
		this.state.retryLater(part.shard(), retry, now);
	}

}
