package io.github.workqueue.autoconfigure.internal;

import java.time.Duration;

import io.github.workqueue.autoconfigure.RateLimiterType;
import io.github.workqueue.autoconfigure.WorkQueueProperties.Backend;

/**
 * The one place where the defaults of {@code workqueue.defaults.*} and
 * {@code workqueue.queues.<name>.*} are kept: a queue inherits what it leaves out from
 * {@code workqueue.defaults}, and these fill what both leave out. The configuration
 * metadata and docs/configuration.md state the same values, and a test holds them to
 * these.
 *
 * <p>
 * Only constants of the JDK's and this module's types: the Redis module is optional, so
 * nothing here may load one of its classes.
 */
public final class QueueDefaults {

	public static final int WORKERS = 1;

	public static final RateLimiterType RATE_LIMITER_TYPE = RateLimiterType.CONTROLLER;

	public static final Duration BASE_DELAY = Duration.ofMillis(5);

	public static final Duration MAX_DELAY = Duration.ofSeconds(1000);

	public static final double QPS = 10;

	public static final int BURST = 100;

	public static final Duration FAST_DELAY = Duration.ofMillis(5);

	public static final Duration SLOW_DELAY = Duration.ofSeconds(10);

	public static final int MAX_FAST_ATTEMPTS = 5;

	public static final Backend BACKEND = Backend.MEMORY;

	public static final int DEFAULT_PRIORITY = 0;

	public static final Duration LEASE_DURATION = Duration.ofSeconds(30);

	public static final int MAX_REDELIVERIES = 5;

	public static final String KEY_PREFIX = "workqueue";

	public static final int SHARDS = 1;

	/** As {@code RedisQueueBuilder.DEFAULT_PREFETCH}, which a test checks. */
	public static final int PREFETCH = 64;

	/** As {@code RedisQueueBuilder.MOST_PREFETCH}, which a test checks. */
	public static final int MOST_PREFETCH = 256;

	/** As {@code RedisQueueBuilder}'s default. */
	public static final boolean ADAPTIVE_PREFETCH = true;

	/** As {@code RedisQueueBuilder.DEFAULT_MAX_ASYNC_ADDS}, which a test checks. */
	public static final int MAX_ASYNC_ADDS = 1024;

	public static final int REPLICAS_ACK = 0;

	/** As {@code RedisQueueBuilder.DEFAULT_REPLICAS_ACK_TIMEOUT}, which a test checks. */
	public static final Duration REPLICAS_ACK_TIMEOUT = Duration.ofSeconds(1);

	private QueueDefaults() {
	}

}
