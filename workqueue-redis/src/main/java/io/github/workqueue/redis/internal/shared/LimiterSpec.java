package io.github.workqueue.redis.internal.shared;

import java.time.Duration;
import java.util.Locale;

import io.github.workqueue.core.ratelimit.BucketRateLimiter;
import io.github.workqueue.core.ratelimit.ExponentialFailureRateLimiter;
import io.github.workqueue.core.ratelimit.FastSlowRateLimiter;
import io.github.workqueue.core.ratelimit.MaxOfRateLimiter;
import io.github.workqueue.core.ratelimit.RateLimiter;
import io.github.workqueue.core.ratelimit.WithMaxWaitRateLimiter;

/**
 * A rate limiter of the core's kinds, described in the JSON that
 * {@code includes/limiters.lua}'s {@code when} evaluates on Redis, so that every instance
 * shares its failure counts and buckets. Durations are in microseconds, Redis's
 * resolution. Immutable.
 */
public final class LimiterSpec {

	private static final Duration LONGEST = Duration.ofDays(365L * 1000);

	private final String json;

	private final boolean countsFailures;

	private int buckets;

	private boolean perItem;

	private LimiterSpec(RateLimiter<?> limiter) {
		this.json = describe(limiter);
		this.countsFailures = this.perItem;
	}

	/**
	 * Describes a limiter built from the core's limiter classes.
	 * @throws IllegalArgumentException for any other limiter, whose state Redis cannot
	 * share
	 */
	public static LimiterSpec of(RateLimiter<?> limiter) {
		return new LimiterSpec(limiter);
	}

	String json() {
		return this.json;
	}

	/**
	 * Whether the limiter has token buckets, which a queue of several shards keeps in its
	 * first shard.
	 */
	boolean hasBuckets() {
		return this.buckets > 0;
	}

	/**
	 * Whether some part of the limiter counts failures per item (so {@code numRequeues}
	 * is the shared count rather than 0, as for a bucket alone).
	 */
	boolean countsFailures() {
		return this.countsFailures;
	}

	private String describe(RateLimiter<?> limiter) {
		if (limiter instanceof ExponentialFailureRateLimiter<?> exponential) {
			this.perItem = true;
			return "{\"type\":\"exponential\",\"base\":" + micros(exponential.baseDelay()) + ",\"max\":"
					+ micros(exponential.maxDelay()) + "}";
		}
		if (limiter instanceof FastSlowRateLimiter<?> fastSlow) {
			this.perItem = true;
			return "{\"type\":\"fastSlow\",\"fast\":" + micros(fastSlow.fastDelay()) + ",\"slow\":"
					+ micros(fastSlow.slowDelay()) + ",\"maxFast\":" + fastSlow.maxFastAttempts() + "}";
		}
		if (limiter instanceof BucketRateLimiter<?> bucket) {
			return "{\"type\":\"bucket\",\"id\":\"" + (this.buckets++) + "\",\"qps\":"
					+ String.format(Locale.ROOT, "%.17g", bucket.qps()) + ",\"burst\":" + bucket.burst() + "}";
		}
		if (limiter instanceof MaxOfRateLimiter<?> maxOf) {
			StringBuilder of = new StringBuilder();
			for (RateLimiter<?> inner : maxOf.limiters()) {
				of.append(of.isEmpty() ? "" : ",").append(describe(inner));
			}
			return "{\"type\":\"maxOf\",\"of\":[" + of + "]}";
		}
		if (limiter instanceof WithMaxWaitRateLimiter<?> withMaxWait) {
			return "{\"type\":\"withMaxWait\",\"max\":" + micros(withMaxWait.maxWait()) + ",\"of\":"
					+ describe(withMaxWait.limiter()) + "}";
		}
		throw new IllegalArgumentException("Rate limiter " + limiter + " (" + limiter.getClass().getName()
				+ ") cannot be shared by instances on Redis: build it from the core's exponential, fast-slow, "
				+ "bucket, max-of and with-max-wait limiters");
	}

	/** Rounded up, so that no delay shrinks to nothing; saturated at a thousand years. */
	public static long micros(Duration duration) {
		if (duration.compareTo(LONGEST) > 0) {
			return LONGEST.toNanos() / 1000;
		}
		long nanos = duration.toNanos();
		return nanos / 1000 + ((nanos % 1000 > 0) ? 1 : 0);
	}

}
