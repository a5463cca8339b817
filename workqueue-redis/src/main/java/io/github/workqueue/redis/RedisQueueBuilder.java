package io.github.workqueue.redis;

import java.lang.management.ManagementFactory;
import java.time.Duration;
import java.util.Objects;
import java.util.UUID;
import java.util.function.Consumer;
import java.util.function.LongSupplier;

import io.github.workqueue.core.Clock;
import io.github.workqueue.core.FairnessKeyExtractor;
import io.github.workqueue.core.metrics.MetricsProvider;
import io.github.workqueue.core.ratelimit.RateLimiter;
import io.github.workqueue.core.ratelimit.RateLimiters;
import io.github.workqueue.core.trace.TraceCapture;
import io.github.workqueue.redis.internal.DefaultRedisQueue;
import io.github.workqueue.redis.internal.RedisQueueMetrics;
import io.github.workqueue.redis.internal.RedisQueueSettings;
import org.jspecify.annotations.Nullable;

/**
 * Builds a {@link RedisQueue}. Every instance that builds a queue with the same prefix
 * and name on the same Redis shares it, and must configure it alike (lease, limiter,
 * parking). Defaults: prefix {@code workqueue}, leases of 30 seconds, items parked after
 * 5 redeliveries in a row, client-go's default controller rate limiter, no metrics. Not
 * thread-safe; the queues it builds are.
 */
public final class RedisQueueBuilder {

	/** The most items an instance leases ahead of its waiting threads by default. */
	public static final int DEFAULT_PREFETCH = 64;

	/** The most items an instance may lease ahead of its waiting threads. */
	public static final int MOST_PREFETCH = 256;

	/**
	 * How many asynchronous adds per shard an instance has unanswered at most by default.
	 */
	public static final int DEFAULT_MAX_ASYNC_ADDS = 1024;

	/** How long an add or done waits for its replicas by default, with replicas-ack. */
	public static final Duration DEFAULT_REPLICAS_ACK_TIMEOUT = Duration.ofSeconds(1);

	private final RedisQueueConnection connection;

	private final String name;

	private String prefix = "workqueue";

	private Duration leaseDuration = Duration.ofSeconds(30);

	private int maxRedeliveries = 5;

	private int shards = 1;

	private int prefetch = DEFAULT_PREFETCH;

	private boolean adaptivePrefetch = true;

	private int maxAsyncAdds = DEFAULT_MAX_ASYNC_ADDS;

	private int replicasAck;

	private Duration replicasAckTimeout = DEFAULT_REPLICAS_ACK_TIMEOUT;

	private @Nullable TraceCapture traceCapture;

	private RateLimiter<?> rateLimiter = RateLimiters.controllerDefault(Clock.system());

	private MetricsProvider metricsProvider = MetricsProvider.noop();

	private String holder = defaultHolder();

	private @Nullable LongSupplier redisTimeMicros;

	private int defaultPriority;

	private @Nullable FairnessKeyExtractor<?> fairness;

	private Consumer<? super LateDoneOutcome> lateDoneListener = (outcome) -> {
	};

	RedisQueueBuilder(RedisQueueConnection connection, String name) {
		this.connection = Objects.requireNonNull(connection, "connection");
		Objects.requireNonNull(name, "name");
		if (name.isBlank()) {
			throw new IllegalArgumentException("A Redis queue needs a name: it names its keys");
		}
		this.name = name;
	}

	/**
	 * Sets the first part of the queue's keys, {@code {prefix:name}:...}.
	 * @param prefix the prefix
	 * @return this builder
	 */
	public RedisQueueBuilder prefix(String prefix) {
		Objects.requireNonNull(prefix, "prefix");
		if (prefix.isBlank() || prefix.contains("{") || prefix.contains("}")) {
			throw new IllegalArgumentException("prefix must be non-blank without braces, was '" + prefix + "'");
		}
		this.prefix = prefix;
		return this;
	}

	/**
	 * Sets how long a lease lasts if its holder stops renewing it (it renews every third
	 * of it). This is how long an item held by a crashed instance waits before it is
	 * delivered again.
	 * @param leaseDuration at least 100 milliseconds
	 * @return this builder
	 */
	public RedisQueueBuilder leaseDuration(Duration leaseDuration) {
		Objects.requireNonNull(leaseDuration, "leaseDuration");
		if (leaseDuration.compareTo(Duration.ofMillis(100)) < 0) {
			throw new IllegalArgumentException("leaseDuration must be at least 100ms, was " + leaseDuration);
		}
		this.leaseDuration = leaseDuration;
		return this;
	}

	/**
	 * Sets how many times in a row an item may be delivered again after its lease
	 * expired; the next expiry parks it instead (an item that kills its workers must not
	 * kill every instance in turn). A {@code done} resets the count.
	 * @param maxRedeliveries zero or more
	 * @return this builder
	 */
	public RedisQueueBuilder maxRedeliveries(int maxRedeliveries) {
		if (maxRedeliveries < 0) {
			throw new IllegalArgumentException("maxRedeliveries must not be negative, was " + maxRedeliveries);
		}
		this.maxRedeliveries = maxRedeliveries;
		return this;
	}

	/**
	 * Sets the priority of adds that name none. Default 0; while every ready item of a
	 * queue has priority 0 and no fairness keys, the queue keeps its FIFO in one Redis
	 * list.
	 * @param priority the default priority
	 * @return this builder
	 */
	public RedisQueueBuilder defaultPriority(int priority) {
		this.defaultPriority = priority;
		return this;
	}

	/**
	 * Serves ready items of one priority round-robin over the fairness keys the extractor
	 * gives, queue-wide (per shard on a queue of several shards). The extractor runs on
	 * the adding instance; every instance sharing the queue must give equal items the
	 * same keys. Adds carry the keys in their batch.
	 * @param extractor the extractor, for the queue's item type
	 * @return this builder
	 */
	public RedisQueueBuilder fairness(FairnessKeyExtractor<?> extractor) {
		this.fairness = Objects.requireNonNull(extractor, "extractor");
		return this;
	}

	/**
	 * Spreads the queue over several shards, each under a hash tag of its own chosen so
	 * that a Redis Cluster puts them on different masters (their slots are spread evenly
	 * over the slot range). An item always lives in the same shard (by a hash of its
	 * encoded form), so every per-item guarantee holds as with one shard; the instances
	 * take from the shards in turn. Items come out in the order added within a shard, not
	 * across shards. Token buckets stay queue-wide (kept in the first shard). Every
	 * instance of a queue must use the same number of shards.
	 * @param shards from 1 (the default) to 1024
	 * @return this builder
	 */
	public RedisQueueBuilder shards(int shards) {
		if (shards < 1 || shards > 1024) {
			throw new IllegalArgumentException("shards must be from 1 to 1024, was " + shards);
		}
		this.shards = shards;
		return this;
	}

	/**
	 * Sets the rate limiter. It must be made of the core's limiters (exponential,
	 * fast-slow, bucket, max-of, with-max-wait): their state (failure counts, buckets)
	 * then lives in Redis, shared by all instances. The limiter object itself is only
	 * read for its settings.
	 * @param rateLimiter the limiter
	 * @return this builder
	 * @throws IllegalArgumentException for another kind of limiter
	 */
	public RedisQueueBuilder rateLimiter(RateLimiter<?> rateLimiter) {
		this.rateLimiter = Objects.requireNonNull(rateLimiter, "rateLimiter");
		return this;
	}

	/**
	 * Sets where this instance's metrics go.
	 * @param metricsProvider the provider
	 * @return this builder
	 */
	public RedisQueueBuilder metricsProvider(MetricsProvider metricsProvider) {
		this.metricsProvider = Objects.requireNonNull(metricsProvider, "metricsProvider");
		return this;
	}

	/**
	 * Sets how many items this instance may lease ahead of its threads waiting in
	 * {@code get} at most (default {@value #DEFAULT_PREFETCH}): they come in the same
	 * calls as the waiting threads' items, wait in a buffer with their leases renewed,
	 * and are handed out in the order taken, so that a thread back from {@code done}
	 * finds its next item without a round trip. The instance keeps as many as its workers
	 * use while a refill travels to Redis and back, up to this bound: none while they
	 * take longer per item than a round trip. Order across instances is then exact up to
	 * the buffers: an item added later with a higher priority waits behind at most this
	 * many items per instance (see {@link RedisQueue}); {@code 0} keeps it exact.
	 * @param prefetch between 0 and {@value #MOST_PREFETCH}
	 * @return this builder
	 */
	public RedisQueueBuilder prefetch(int prefetch) {
		if (prefetch < 0 || prefetch > MOST_PREFETCH) {
			throw new IllegalArgumentException("prefetch must be between 0 and " + MOST_PREFETCH + ", was " + prefetch);
		}
		this.prefetch = prefetch;
		return this;
	}

	/**
	 * Sets whether this instance keeps as many items leased ahead as its workers use, up
	 * to {@link #prefetch(int) prefetch} (the default), or always {@code prefetch}
	 * ({@code false}): a fixed buffer, whose calls carry as many items whatever the
	 * workers' pace, at the cost of the order (and the spread of items over instances) by
	 * that many items even for slow workers.
	 * @param adaptive whether the number leased ahead follows the workers' pace
	 * @return this builder
	 */
	public RedisQueueBuilder adaptivePrefetch(boolean adaptive) {
		this.adaptivePrefetch = adaptive;
		return this;
	}

	/**
	 * Sets how many adds of {@link RedisQueue#addAsync(Object) addAsync} (and its other
	 * forms that go in the batches) this instance has on their way to one shard at most,
	 * unanswered (default {@value #DEFAULT_MAX_ASYNC_ADDS}): the next caller waits until
	 * one is answered (back-pressure), so that a producer faster than Redis does not fill
	 * the heap, and a shard that does not answer holds only the adds of its own items.
	 * @param maxAsyncAdds at least 1
	 * @return this builder
	 */
	public RedisQueueBuilder maxAsyncAdds(int maxAsyncAdds) {
		if (maxAsyncAdds < 1) {
			throw new IllegalArgumentException("maxAsyncAdds must be at least 1, was " + maxAsyncAdds);
		}
		this.maxAsyncAdds = maxAsyncAdds;
		return this;
	}

	/**
	 * Sets how many replicas must confirm each add and done before it returns (Redis
	 * {@code WAIT}; default 0: none, a write returns once the master applied it). Writes
	 * that fewer replicas confirm within {@link #replicasAckTimeout(Duration)} fail with
	 * {@link UnreplicatedWriteException}. A write waits for at least one round trip more
	 * and the replication of the writes made before it on the same connection, and while
	 * it waits, the connection's other commands wait behind it: keep the timeout well
	 * under the client's command timeout and a third of the lease. See {@link RedisQueue}
	 * for what each operation guarantees.
	 * @param replicas how many replicas, 0 or more
	 * @return this builder
	 */
	public RedisQueueBuilder replicasAck(int replicas) {
		if (replicas < 0) {
			throw new IllegalArgumentException("replicasAck must be 0 or more, was " + replicas);
		}
		this.replicasAck = replicas;
		return this;
	}

	/**
	 * Sets how long an add or done waits for the replicas that {@link #replicasAck(int)}
	 * asks (default 1 second).
	 * @param timeout positive, at most a minute
	 * @return this builder
	 */
	public RedisQueueBuilder replicasAckTimeout(Duration timeout) {
		Objects.requireNonNull(timeout, "timeout");
		if (timeout.toMillis() < 1 || timeout.compareTo(Duration.ofMinutes(1)) > 0) {
			throw new IllegalArgumentException(
					"replicasAckTimeout must be from 1 ms to 1 minute, was " + timeout.toMillis() + " ms");
		}
		this.replicasAckTimeout = timeout;
		return this;
	}

	/**
	 * Sets how this instance appears as the holder of its leases (default: process id,
	 * host and a random suffix). Whitespace is replaced.
	 * @param holder the name
	 * @return this builder
	 */
	public RedisQueueBuilder holder(String holder) {
		Objects.requireNonNull(holder, "holder");
		if (holder.isBlank()) {
			throw new IllegalArgumentException("holder must not be blank");
		}
		this.holder = holder;
		return this;
	}

	/**
	 * For tests only: uses the clock's time in place of Redis's {@code TIME}, so that
	 * delays, leases and buckets can be driven by a
	 * {@link io.github.workqueue.core.FakeClock}. Every instance of the queue must then
	 * use the same clock.
	 * @param clock the clock
	 * @return this builder
	 */
	public RedisQueueBuilder timeForTests(Clock clock) {
		Objects.requireNonNull(clock, "clock");
		this.redisTimeMicros = () -> clock.nanoTime() / 1000;
		return this;
	}

	/**
	 * Sets who is told the final outcome of each {@code done} that returned
	 * {@link DoneResult#NO_ANSWER}: once per such done, on a helper thread, which it
	 * should not hold for long. The outcome is also logged and counted. A listener that
	 * throws is logged and does not change the outcome.
	 * @param listener the listener
	 * @return this builder
	 */
	public RedisQueueBuilder lateDoneListener(Consumer<? super LateDoneOutcome> listener) {
		this.lateDoneListener = Objects.requireNonNull(listener, "listener");
		return this;
	}

	/**
	 * Makes the queue keep each add's trace context beside its item, for the processing
	 * it causes on whichever instance takes it (see
	 * {@link io.github.workqueue.core.trace.TracedQueue}); without it the queue reads and
	 * stores none, and sends Redis the same commands as before.
	 * @param traceCapture reads the adding thread's current context
	 * @return this builder
	 */
	public RedisQueueBuilder traceCapture(TraceCapture traceCapture) {
		this.traceCapture = Objects.requireNonNull(traceCapture, "traceCapture");
		return this;
	}

	/**
	 * Builds the queue and starts renewing its leases.
	 * @param <T> the type of the items
	 * @param codec how items are stored
	 * @return the queue
	 * @throws IllegalArgumentException if the rate limiter cannot be shared on Redis
	 */
	@SuppressWarnings("unchecked")
	public <T> RedisQueue<T> build(ItemCodec<T> codec) {
		Objects.requireNonNull(codec, "codec");
		RedisQueueMetrics metrics = (this.metricsProvider != MetricsProvider.noop())
				? new RedisQueueMetrics(this.name, this.metricsProvider, this.defaultPriority) : null;
		Duration longestBlock = (this.redisTimeMicros != null) ? Duration.ofMillis(10) : Duration.ofSeconds(1);
		return new DefaultRedisQueue<>(new RedisQueueSettings<>(this.name, this.prefix, this.shards,
				this.connection.link(), codec, this.holder, this.leaseDuration, this.maxRedeliveries,
				(RateLimiter<? super T>) this.rateLimiter, this.redisTimeMicros, longestBlock, this.prefetch,
				this.adaptivePrefetch, this.maxAsyncAdds, metrics, this.defaultPriority,
				(FairnessKeyExtractor<? super T>) this.fairness, this.lateDoneListener, this.replicasAck,
				this.replicasAckTimeout, this.traceCapture));
	}

	private static String defaultHolder() {
		String runtime = ManagementFactory.getRuntimeMXBean().getName();
		return runtime + "#" + UUID.randomUUID().toString().substring(0, 8);
	}

}
