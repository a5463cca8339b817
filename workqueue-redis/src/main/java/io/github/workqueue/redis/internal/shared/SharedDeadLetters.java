package io.github.workqueue.redis.internal.shared;

import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;

import io.lettuce.core.ScriptOutputType;
import org.jspecify.annotations.Nullable;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.ObjectMapper;

import io.github.workqueue.core.DeadLetter;

import io.github.workqueue.redis.internal.link.RedisLink;
import io.github.workqueue.redis.internal.link.Script;

/**
 * The dead letters of a Redis queue that its workers gave up, queue-wide: a hash of
 * records and a sorted set of their times under the first shard's hash tag, at most
 * {@link #CAPACITY} of them (the oldest dropped past it). Parked items are the other dead
 * letters; {@code DefaultRedisQueue} lists both.
 *
 * <p>
 * Thread-safe: each operation is one script.
 */
public final class SharedDeadLetters {

	/** The most dead letters kept per queue. */
	public static final int CAPACITY = 10_000;

	private static final ObjectMapper JSON = new ObjectMapper();

	private final RedisLink link;

	private final QueueKeys keys;

	private final Supplier<String> now;

	public SharedDeadLetters(RedisLink link, QueueKeys keys, Supplier<String> now) {
		this.link = link;
		this.keys = keys;
		this.now = now;
	}

	/** Keeps a dead letter; returns how many old ones were dropped to make room. */
	public long keep(String encoded, String reason, int attempts, @Nullable String lastError) {
		Map<String, Object> record = new LinkedHashMap<>();
		record.put("reason", reason);
		record.put("attempts", attempts);
		record.put("error", lastError);
		long at = System.currentTimeMillis();
		record.put("at", at);
		Long dropped = this.link.run(Script.DEAD_LETTER, ScriptOutputType.INTEGER, this.keys.scriptKeys(),
				this.now.get(), encoded, JSON.writeValueAsString(record), Long.toString(at),
				Integer.toString(CAPACITY));
		return dropped;
	}

	/** The newest dead letters, at most {@code limit}. */
	public List<DeadLetter> newest(int limit) {
		List<Object> reply = this.link.run(Script.DEAD_LETTERS, ScriptOutputType.MULTI, this.keys.scriptKeys(),
				this.now.get(), Integer.toString(limit));
		List<DeadLetter> letters = new ArrayList<>();
		for (int i = 1; i + 1 < reply.size(); i += 2) {
			JsonNode record = JSON.readTree((String) reply.get(i + 1));
			letters.add(new DeadLetter((String) reply.get(i), text(record, "reason", "gave up"),
					record.path("attempts").asInt(0), text(record, "error", null),
					record.has("at") ? Instant.ofEpochMilli(record.path("at").asLong()) : null));
		}
		return letters;
	}

	/** Forgets a dead letter; false if there was none. */
	public boolean drop(String encoded) {
		Long removed = this.link.run(Script.DROP_DEAD_LETTER, ScriptOutputType.INTEGER, this.keys.scriptKeys(),
				this.now.get(), encoded);
		return removed == 1;
	}

	private static @Nullable String text(JsonNode record, String field, @Nullable String otherwise) {
		JsonNode value = record.path(field);
		return (value.isMissingNode() || value.isNull()) ? otherwise : value.asString();
	}

}
