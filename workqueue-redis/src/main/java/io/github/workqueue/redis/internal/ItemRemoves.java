package io.github.workqueue.redis.internal;

import java.util.function.Supplier;

import io.lettuce.core.RedisCommandExecutionException;
import io.lettuce.core.RedisConnectionException;
import io.lettuce.core.RedisException;
import io.lettuce.core.ScriptOutputType;
import org.jspecify.annotations.Nullable;

import io.github.workqueue.redis.internal.link.CallNumbers;
import io.github.workqueue.redis.internal.link.RedisLink;
import io.github.workqueue.redis.internal.link.Script;

import io.github.workqueue.redis.internal.shared.Shards;

import io.github.workqueue.redis.internal.batch.Batcher;
import io.github.workqueue.redis.internal.batch.Grant;

/**
 * The remove of an item ({@code remove.lua} on its shard), after the dones its instance
 * asked without waiting; a key this instance leased ahead is taken out of its buffer and
 * its lease ended with the remove. Each remove runs at most once
 * ({@link RedisLink#runOnce}): Lettuce sends again, after a reconnect, a remove Redis may
 * have run, and run again it would take out an add made since; Redis refuses it, and the
 * caller gets an exception saying the remove may have been applied.
 *
 * <p>
 * <b>Concurrency.</b> Thread-safe: its one state, the removes' numbers, is a
 * {@link CallNumbers}.
 */
final class ItemRemoves {

	private final String name;

	private final RedisLink link;

	private final Shards shards;

	private final Batcher batcher;

	private final @Nullable RedisQueueMetrics metrics;

	private final Supplier<String> now;

	/** The numbers of this instance's removes, each run at most once. */
	private final CallNumbers numbers = new CallNumbers();

	ItemRemoves(String name, RedisLink link, Shards shards, Batcher batcher, @Nullable RedisQueueMetrics metrics,
			Supplier<String> now) {
		this.name = name;
		this.link = link;
		this.shards = shards;
		this.batcher = batcher;
		this.metrics = metrics;
		this.now = now;
	}

	/**
	 * Removes the item.
	 * @param encoded the item as stored
	 * @return whether it was queued, waiting or due to be queued again at its done
	 */
	boolean remove(String encoded) {
		this.batcher.awaitDonesAsked();
		Grant leasedAhead = this.batcher.takes().takeLeasedAhead(encoded);
		Long removed;
		try {
			removed = this.link.runOnce(this.numbers, Script.REMOVE, ScriptOutputType.INTEGER,
					this.shards.keys(this.shards.of(encoded)).scriptKeys(), this.now.get(), encoded,
					(leasedAhead != null) ? Long.toString(leasedAhead.token()) : "");
		}
		catch (RuntimeException ex) {
			if (leasedAhead != null) {
				// Whether the remove ran is unknown: the lease taken out of the buffer
				// goes back (a give-back by its token, a no-op if the remove ended it)
				// rather than waiting, unrenewed, for its expiry.
				this.batcher.takes().giveBack(leasedAhead);
			}
			if (ex instanceof RedisCommandExecutionException refused) {
				if (CallNumbers.isRepeatRefusal(refused)) {
					throw unconfirmed(encoded, "was sent again after a lost connection, and not run again", ex);
				}
				throw ex;
			}
			if (ex instanceof RedisException && !(ex instanceof RedisConnectionException)) {
				throw unconfirmed(encoded, "got no answer (" + ex.getMessage() + ")", ex);
			}
			throw ex;
		}
		if (removed == 1 && this.metrics != null) {
			this.metrics.removed();
		}
		return removed == 1;
	}

	/**
	 * A remove whose outcome is unknown: Redis refused it as a repeat, or did not answer
	 * after it was sent (a refusal by Redis's error reply, or a failure to connect, sent
	 * or applied nothing, and is thrown as it is).
	 */
	private RedisException unconfirmed(String encoded, String what, RuntimeException cause) {
		return new RedisException(
				"workqueue '" + this.name + "': the remove of " + encoded + " " + what + "; it may have been applied",
				cause);
	}

}
