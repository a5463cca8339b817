package io.github.workqueue.sample;

import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;

import org.jspecify.annotations.Nullable;

import org.springframework.context.annotation.Profile;
import org.springframework.data.redis.core.StringRedisTemplate;
import org.springframework.data.redis.core.script.RedisScript;
import org.springframework.stereotype.Component;

/**
 * The store shared by every instance in the {@code redis} profile: one Redis hash per
 * deployment, changed by scripts so that each change is atomic whichever instance makes
 * it.
 */
@Component
@Profile("redis")
public class RedisDeploymentStore implements DeploymentStore {

	private static final String PREFIX = "sample:deployment:";

	private static final RedisScript<Long> UPDATE = RedisScript.of("""
			redis.call('HSET', KEYS[1], 'replicas', ARGV[1])
			redis.call('HSETNX', KEYS[1], 'reconciledGeneration', 0)
			redis.call('HSETNX', KEYS[1], 'reconciles', 0)
			return redis.call('HINCRBY', KEYS[1], 'generation', 1)
			""", Long.class);

	private static final RedisScript<Long> RECONCILED = RedisScript.of("""
			if redis.call('EXISTS', KEYS[1]) == 0 then return 0 end
			local applied = tonumber(redis.call('HGET', KEYS[1], 'reconciledGeneration'))
			redis.call('HSET', KEYS[1], 'reconciledGeneration', math.max(applied, tonumber(ARGV[1])))
			return redis.call('HINCRBY', KEYS[1], 'reconciles', 1)
			""", Long.class);

	private final StringRedisTemplate redis;

	public RedisDeploymentStore(StringRedisTemplate redis) {
		this.redis = redis;
	}

	@Override
	public Deployment update(String key, int replicas) {
		this.redis.execute(UPDATE, List.of(PREFIX + key), Integer.toString(replicas));
		Deployment updated = get(key);
		if (updated == null) {
			throw new IllegalStateException("Deployment " + key + " vanished from Redis");
		}
		return updated;
	}

	@Override
	public void reconciled(String key, long generation) {
		this.redis.execute(RECONCILED, List.of(PREFIX + key), Long.toString(generation));
	}

	@Override
	public @Nullable Deployment get(String key) {
		Map<Object, Object> fields = this.redis.opsForHash().entries(PREFIX + key);
		if (fields.isEmpty()) {
			return null;
		}
		return new Deployment(key, Integer.parseInt((String) fields.get("replicas")),
				Long.parseLong((String) fields.get("generation")),
				Long.parseLong((String) fields.get("reconciledGeneration")),
				Long.parseLong((String) fields.get("reconciles")));
	}

	@Override
	public Collection<Deployment> all() {
		List<Deployment> all = new ArrayList<>();
		for (String redisKey : new TreeSet<>(this.redis.keys(PREFIX + "*"))) {
			Deployment deployment = get(redisKey.substring(PREFIX.length()));
			if (deployment != null) {
				all.add(deployment);
			}
		}
		return all;
	}

}
