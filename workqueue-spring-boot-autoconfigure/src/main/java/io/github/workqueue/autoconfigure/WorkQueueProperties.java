package io.github.workqueue.autoconfigure;

import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import org.jspecify.annotations.Nullable;

import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.NestedConfigurationProperty;

/**
 * Configuration of the work queues, under {@code workqueue}. Every queue under
 * {@code queues} inherits each setting it leaves out from {@code defaults}, field by
 * field, down to the rate limiter's.
 */
@ConfigurationProperties("workqueue")
public class WorkQueueProperties {

	/**
	 * Settings every queue inherits.
	 */
	private final QueueProperties defaults = new QueueProperties();

	/**
	 * The queues, by name; each becomes a bean of that name.
	 */
	private final Map<String, QueueProperties> queues = new LinkedHashMap<>();

	private final Shutdown shutdown = new Shutdown();

	/**
	 * Whether running queue workers keep the JVM alive until the application is stopped,
	 * as Spring Kafka's listener containers do, on platform and virtual threads alike.
	 * With false, an application without a web server ends when nothing else keeps it
	 * alive.
	 */
	private boolean keepAlive = true;

	public boolean isKeepAlive() {
		return this.keepAlive;
	}

	public void setKeepAlive(boolean keepAlive) {
		this.keepAlive = keepAlive;
	}

	public QueueProperties getDefaults() {
		return this.defaults;
	}

	public Map<String, QueueProperties> getQueues() {
		return this.queues;
	}

	public Shutdown getShutdown() {
		return this.shutdown;
	}

	/**
	 * The settings of one queue; what is left out is inherited.
	 */
	public static class QueueProperties {

		/**
		 * Number of worker threads of the queue's @QueueWorker.
		 */
		private @Nullable Integer workers;

		/**
		 * Failed attempts retried before an item is given up; absent retries forever with
		 * the rate limiter's backoff.
		 */
		private @Nullable Integer maxRetries;

		/**
		 * Exception types that are never retried: an item failing with one (or a
		 * subclass) is given up at once.
		 */
		private List<Class<? extends Throwable>> notRetryable = new ArrayList<>();

		/**
		 * Type of the queue's items, so that the queue bean can be injected as
		 * RateLimitingQueue<ItemType>. Taken from the @QueueWorker method's parameter
		 * when the queue has one.
		 */
		private @Nullable Class<?> itemType;

		/**
		 * Where the queue lives: in this process's memory (the default), or in Redis,
		 * shared by every instance of the application (needs workqueue-redis and
		 * spring-boot-starter-data-redis).
		 */
		private @Nullable Backend backend;

		/**
		 * Redis queues: how long an instance holds an item without renewing its lease; an
		 * item held by a crashed instance is delivered again after it.
		 */
		private @Nullable Duration leaseDuration;

		/**
		 * Redis queues: how many times in a row an item may be delivered again after its
		 * lease expired before it is parked.
		 */
		private @Nullable Integer maxRedeliveries;

		/**
		 * Redis queues: the most items an instance leases ahead of its waiting workers,
		 * so that a worker back from an item finds the next without a round trip to
		 * Redis. The instance keeps as many as its workers use during a round trip (none
		 * while they take longer per item than one), up to this bound. Order across
		 * instances is then exact up to these buffers: a later item of higher priority
		 * waits behind at most this many per instance; 0 keeps it exact. Buffered items
		 * are given back at pause and shutdown. 0 to 256; defaults to 64.
		 */
		private @Nullable Integer prefetch;

		/**
		 * Redis queues: whether an instance leases ahead as many items as its workers use
		 * during a round trip, up to prefetch (true), or always prefetch (false: a fixed
		 * buffer, which serves slow workers out of order too).
		 */
		private @Nullable Boolean adaptivePrefetch;

		/**
		 * Redis queues: how many addAsync calls (and the other asynchronous adds that go
		 * in the batches) an instance has unanswered per shard at most; the next call
		 * waits until one is answered. At least 1; defaults to 1024.
		 */
		private @Nullable Integer maxAsyncAdds;

		/**
		 * Redis queues: how many replicas must confirm each add and done before it
		 * returns (Redis WAIT), so that an acknowledged add or done survives a failover
		 * to one of them; fewer within replicas-ack-timeout fail the call with
		 * UnreplicatedWriteException, counted; 0 returns once the master applied it.
		 */
		private @Nullable Integer replicasAck;

		/**
		 * Redis queues: how long an add or done waits for the replicas that replicas-ack
		 * asks.
		 */
		private @Nullable Duration replicasAckTimeout;

		/**
		 * Redis queues: first part of the queue's keys, {prefix:name}.
		 */
		private @Nullable String keyPrefix;

		/**
		 * Redis queues: how many shards the queue is spread over, each on its own Redis
		 * Cluster master; order is kept within a shard only. Every instance must use the
		 * same number.
		 */
		private @Nullable Integer shards;

		/**
		 * Priority of adds that name none (higher leaves first), including the queue's
		 * retries and requeues of new items.
		 */
		private @Nullable Integer defaultPriority;

		/**
		 * Name of a FairnessKeyExtractor bean: among ready items of one priority, the
		 * queue serves the keys it gives round-robin, level by level. Absent: no
		 * fairness.
		 */
		private @Nullable String fairness;

		/**
		 * How retries are spaced.
		 */
		@NestedConfigurationProperty
		private final RateLimiterProperties rateLimiter = new RateLimiterProperties();

		public @Nullable Integer getDefaultPriority() {
			return this.defaultPriority;
		}

		public void setDefaultPriority(@Nullable Integer defaultPriority) {
			this.defaultPriority = defaultPriority;
		}

		public @Nullable String getFairness() {
			return this.fairness;
		}

		public void setFairness(@Nullable String fairness) {
			this.fairness = fairness;
		}

		public @Nullable Backend getBackend() {
			return this.backend;
		}

		public void setBackend(@Nullable Backend backend) {
			this.backend = backend;
		}

		public @Nullable Duration getLeaseDuration() {
			return this.leaseDuration;
		}

		public void setLeaseDuration(@Nullable Duration leaseDuration) {
			this.leaseDuration = leaseDuration;
		}

		public @Nullable Integer getMaxRedeliveries() {
			return this.maxRedeliveries;
		}

		public void setMaxRedeliveries(@Nullable Integer maxRedeliveries) {
			this.maxRedeliveries = maxRedeliveries;
		}

		public @Nullable Integer getPrefetch() {
			return this.prefetch;
		}

		public void setPrefetch(@Nullable Integer prefetch) {
			this.prefetch = prefetch;
		}

		public @Nullable Boolean getAdaptivePrefetch() {
			return this.adaptivePrefetch;
		}

		public void setAdaptivePrefetch(@Nullable Boolean adaptivePrefetch) {
			this.adaptivePrefetch = adaptivePrefetch;
		}

		public @Nullable Integer getMaxAsyncAdds() {
			return this.maxAsyncAdds;
		}

		public void setMaxAsyncAdds(@Nullable Integer maxAsyncAdds) {
			this.maxAsyncAdds = maxAsyncAdds;
		}

		public @Nullable Integer getReplicasAck() {
			return this.replicasAck;
		}

		public void setReplicasAck(@Nullable Integer replicasAck) {
			this.replicasAck = replicasAck;
		}

		public @Nullable Duration getReplicasAckTimeout() {
			return this.replicasAckTimeout;
		}

		public void setReplicasAckTimeout(@Nullable Duration replicasAckTimeout) {
			this.replicasAckTimeout = replicasAckTimeout;
		}

		public @Nullable String getKeyPrefix() {
			return this.keyPrefix;
		}

		public void setKeyPrefix(@Nullable String keyPrefix) {
			this.keyPrefix = keyPrefix;
		}

		public @Nullable Integer getShards() {
			return this.shards;
		}

		public void setShards(@Nullable Integer shards) {
			this.shards = shards;
		}

		public @Nullable Class<?> getItemType() {
			return this.itemType;
		}

		public void setItemType(@Nullable Class<?> itemType) {
			this.itemType = itemType;
		}

		public @Nullable Integer getWorkers() {
			return this.workers;
		}

		public void setWorkers(@Nullable Integer workers) {
			this.workers = workers;
		}

		public @Nullable Integer getMaxRetries() {
			return this.maxRetries;
		}

		public void setMaxRetries(@Nullable Integer maxRetries) {
			this.maxRetries = maxRetries;
		}

		public List<Class<? extends Throwable>> getNotRetryable() {
			return this.notRetryable;
		}

		public void setNotRetryable(List<Class<? extends Throwable>> notRetryable) {
			this.notRetryable = notRetryable;
		}

		public RateLimiterProperties getRateLimiter() {
			return this.rateLimiter;
		}

	}

	/**
	 * Where a queue lives.
	 */
	public enum Backend {

		/**
		 * In this process's memory.
		 */
		MEMORY,

		/**
		 * In Redis, shared by every instance.
		 */
		REDIS

	}

	/**
	 * How the workers stop.
	 */
	public static class Shutdown {

		/**
		 * How long shutdown waits for the workers to finish the items in flight and
		 * queued; what is left after it is counted and logged.
		 */
		private Duration timeout = Duration.ofSeconds(30);

		public Duration getTimeout() {
			return this.timeout;
		}

		public void setTimeout(Duration timeout) {
			this.timeout = timeout;
		}

	}

}
