package io.github.workqueue.benchmarks;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

import io.lettuce.core.ScriptOutputType;
import io.lettuce.core.api.sync.RedisCommands;

/**
 * Issue 39's yardstick: the least a Redis queue with client-go's guarantees costs (dedup
 * while queued, FIFO, one holder with a lease and a token, an item re-added while
 * processing queued again by its done, a done that checks its token), a whole batch per
 * call, in {@code minimal-queue.lua}. It has none of this project's other features
 * (delays, limiters, priorities, fairness, parking, expired-lease reaping, metrics), and
 * its caller batches by hand: what the project's queue costs beyond it is the price of
 * those and of an API that takes one item per call. {@code MinimalLuaQueueTest} holds it
 * to those guarantees. Not thread-safe: one thread per instance (a connection's sync
 * commands serialize).
 */
final class MinimalLuaQueue {

	private final RedisCommands<String, String> redis;

	private final String[] keys;

	private final String leaseMicros;

	MinimalLuaQueue(RedisCommands<String, String> redis, String name, long leaseMicros) {
		this.redis = redis;
		String tag = "{minimal:" + name + "}:";
		this.keys = new String[] { tag + "queue", tag + "dirty", tag + "processing", tag + "leases", tag + "tokens" };
		this.leaseMicros = Long.toString(leaseMicros);
	}

	/** Loads (or replaces) the function library on the server. */
	static void load(RedisCommands<String, String> redis) {
		try (InputStream in = MinimalLuaQueue.class.getResourceAsStream("minimal-queue.lua")) {
			if (in == null) {
				throw new IllegalStateException("minimal-queue.lua is not on the class path");
			}
			redis.functionLoad(new String(in.readAllBytes(), StandardCharsets.UTF_8), true);
		}
		catch (IOException ex) {
			throw new UncheckedIOException(ex);
		}
	}

	/**
	 * Adds items in one call.
	 * @return how many became dirty
	 */
	long add(List<String> items) {
		return this.redis.fcall("minimal_add", ScriptOutputType.INTEGER, this.keys, items.toArray(new String[0]));
	}

	/** What a {@link #cycle} answered: each done's acceptance, and the leases granted. */
	record Cycle(List<Boolean> accepted, List<Lease> leases) {
	}

	/** A lease: its item and token. */
	record Lease(String item, String token) {
	}

	/**
	 * Ends leases and takes new ones in one call.
	 * @param done the leases to end
	 * @param wanted how many leases to take
	 */
	Cycle cycle(List<Lease> done, int wanted) {
		String[] args = new String[3 + 2 * done.size()];
		args[0] = Long.toString(System.currentTimeMillis() * 1000);
		args[1] = this.leaseMicros;
		args[2] = Integer.toString(wanted);
		for (int i = 0; i < done.size(); i++) {
			args[3 + 2 * i] = done.get(i).item();
			args[4 + 2 * i] = done.get(i).token();
		}
		List<Object> reply = this.redis.fcall("minimal_cycle", ScriptOutputType.MULTI, this.keys, args);
		List<Boolean> accepted = new ArrayList<>(done.size());
		for (int i = 0; i < done.size(); i++) {
			accepted.add((Long) reply.get(i) == 1);
		}
		List<Lease> leases = new ArrayList<>();
		for (int i = done.size(); i + 1 < reply.size(); i += 2) {
			leases.add(new Lease((String) reply.get(i), (String) reply.get(i + 1)));
		}
		return new Cycle(accepted, leases);
	}

	/** How many items are queued. */
	long len() {
		return this.redis.llen(this.keys[0]);
	}

}
