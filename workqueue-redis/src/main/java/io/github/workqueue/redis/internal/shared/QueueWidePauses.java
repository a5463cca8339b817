package io.github.workqueue.redis.internal.shared;

import java.lang.System.Logger.Level;
import java.time.Instant;
import java.util.Objects;
import java.util.Optional;
import java.util.function.Supplier;

import io.github.workqueue.redis.QueueWidePause;
import io.github.workqueue.redis.RedisQueue;
import io.lettuce.core.ScriptOutputType;

import io.github.workqueue.redis.internal.link.RedisLink;
import io.github.workqueue.redis.internal.link.Script;

/**
 * A queue's pause on every instance: a field of each shard's counters that
 * {@code batch.lua} reads before it grants a lease, so that every instance obeys it at
 * its next request. Who set it and since when are kept with it.
 *
 * <p>
 * <b>Concurrency.</b> Thread-safe: it keeps no state of its own; each shard's change is
 * one script.
 */
public final class QueueWidePauses {

	private static final System.Logger logger = System.getLogger(RedisQueue.class.getName());

	private final String name;

	private final RedisLink link;

	private final Shards shards;

	private final Supplier<String> now;

	public QueueWidePauses(String name, RedisLink link, Shards shards, Supplier<String> now) {
		this.name = name;
		this.link = link;
		this.shards = shards;
		this.now = now;
	}

	/**
	 * Pauses the queue on every instance.
	 * @param by who pauses it
	 * @return false if it was paused already
	 */
	public boolean pause(String by) {
		Objects.requireNonNull(by, "by");
		if (by.isBlank()) {
			throw new IllegalArgumentException("Say who pauses the queue: by must not be blank");
		}
		boolean changed = setOnEveryShard(System.currentTimeMillis() + " " + by.strip());
		if (changed) {
			logger.log(Level.INFO, "workqueue '" + this.name + "': paused on every instance by " + by.strip());
		}
		return changed;
	}

	/**
	 * Ends the pause on every instance.
	 * @return false if it was not paused
	 */
	public boolean resume() {
		boolean changed = setOnEveryShard("");
		if (changed) {
			logger.log(Level.INFO, "workqueue '" + this.name + "': resumed on every instance");
		}
		return changed;
	}

	/** The pause in force, if any, as the first shard keeps it. */
	public Optional<QueueWidePause> current() {
		String state = this.link.run(Script.PAUSED, ScriptOutputType.VALUE, this.shards.keys(0).scriptKeys(),
				this.now.get());
		if (state == null) {
			return Optional.empty();
		}
		int space = state.indexOf(' ');
		return Optional.of(new QueueWidePause(state.substring(space + 1),
				Instant.ofEpochMilli(Long.parseLong(state.substring(0, space)))));
	}

	/** Sets (or, empty, clears) the pause on every shard; whether any changed. */
	private boolean setOnEveryShard(String state) {
		boolean changed = false;
		for (int shard = 0; shard < this.shards.count(); shard++) {
			Long set = this.link.run(Script.PAUSE, ScriptOutputType.INTEGER, this.shards.keys(shard).scriptKeys(),
					this.now.get(), state);
			changed |= set == 1;
		}
		return changed;
	}

}
