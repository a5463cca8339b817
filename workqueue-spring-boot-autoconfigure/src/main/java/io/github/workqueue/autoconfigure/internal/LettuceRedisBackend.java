package io.github.workqueue.autoconfigure.internal;

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Consumer;

import io.lettuce.core.AbstractRedisClient;
import io.lettuce.core.RedisClient;
import io.lettuce.core.cluster.RedisClusterClient;
import org.jspecify.annotations.Nullable;

import org.springframework.beans.factory.DisposableBean;
import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;

import io.github.workqueue.autoconfigure.RedisItemCodecs;
import io.github.workqueue.autoconfigure.RedisQueueBuilderCustomizer;
import io.github.workqueue.core.FairnessKeyExtractor;
import io.github.workqueue.core.RateLimitingQueue;
import io.github.workqueue.core.metrics.MetricsProvider;
import io.github.workqueue.core.ratelimit.RateLimiter;
import io.github.workqueue.redis.ItemCodec;
import io.github.workqueue.redis.LateDoneOutcome;
import io.github.workqueue.redis.RedisQueue;
import io.github.workqueue.redis.RedisQueueBuilder;
import io.github.workqueue.redis.RedisQueueConnection;

/**
 * Redis queues on the Lettuce client that Spring Boot configured from
 * {@code spring.data.redis.*} (standalone, Sentinel or Cluster, with its SSL and
 * timeouts): one {@link RedisQueueConnection} over that client serves every queue. Items
 * are stored as the {@link RedisItemCodecs} say, and each queue's builder goes through
 * the {@link RedisQueueBuilderCustomizer}s after the configured settings. The final
 * outcome of each {@code done} that got no answer in time ({@link LateDoneOutcome}) is
 * published as an application event.
 *
 * <p>
 * <b>Concurrency.</b> Thread-safe.
 */
public final class LettuceRedisBackend implements RedisBackend, DisposableBean {

	private final RedisQueueConnection connection;

	private final RedisItemCodecs codecs;

	private final List<RedisQueueBuilderCustomizer> customizers;

	private final Consumer<LateDoneOutcome> lateDones;

	private final List<RedisQueue<?>> queues = new CopyOnWriteArrayList<>();

	/**
	 * @param connectionFactory Boot's connection factory
	 * @param codecs how each queue's items are stored
	 * @param customizers adjust each queue's builder, in order
	 * @param lateDones publishes the late outcomes of dones
	 */
	public LettuceRedisBackend(LettuceConnectionFactory connectionFactory, RedisItemCodecs codecs,
			List<RedisQueueBuilderCustomizer> customizers, Consumer<LateDoneOutcome> lateDones) {
		AbstractRedisClient client = connectionFactory.getNativeClient();
		if (client instanceof RedisClusterClient cluster) {
			this.connection = RedisQueueConnection.of(cluster);
		}
		else if (client instanceof RedisClient standalone) {
			this.connection = RedisQueueConnection.of(standalone);
		}
		else {
			throw new IllegalStateException("Unsupported Lettuce client " + client.getClass().getName());
		}
		this.codecs = codecs;
		this.customizers = List.copyOf(customizers);
		this.lateDones = lateDones;
	}

	@Override
	public <T> RateLimitingQueue<T> create(QueueSettings settings, @Nullable Class<?> itemType,
			RateLimiter<?> rateLimiter, MetricsProvider metricsProvider,
			@Nullable FairnessKeyExtractor<Object> fairness) {
		@SuppressWarnings("unchecked")
		Class<T> type = (Class<T>) ((itemType != null) ? itemType : String.class);
		ItemCodec<T> codec = this.codecs.codecFor(settings.name(), type);
		RedisQueueBuilder builder = RedisQueue.builder(this.connection, settings.name())
			.prefix(settings.redis().keyPrefix())
			.leaseDuration(settings.redis().leaseDuration())
			.maxRedeliveries(settings.redis().maxRedeliveries())
			.shards(settings.redis().shards())
			.prefetch(settings.redis().prefetch())
			.adaptivePrefetch(settings.redis().adaptivePrefetch())
			.maxAsyncAdds(settings.redis().maxAsyncAdds())
			.replicasAck(settings.redis().replicasAck())
			.replicasAckTimeout(settings.redis().replicasAckTimeout())
			.rateLimiter(rateLimiter)
			.metricsProvider(metricsProvider)
			.defaultPriority(settings.defaultPriority())
			.lateDoneListener(this.lateDones);
		if (fairness != null) {
			builder.fairness(fairness);
		}
		for (RedisQueueBuilderCustomizer customizer : this.customizers) {
			customizer.customize(settings.name(), builder);
		}
		RedisQueue<T> queue = builder.build(codec);
		this.queues.add(queue);
		return queue;
	}

	/**
	 * Shuts this instance's queues down (giving back any lease still held) before closing
	 * the connection they use: the queue beans' own shutdown may come later, when it is
	 * closed.
	 */
	@Override
	public void destroy() {
		this.queues.forEach(RedisQueue::shutDown);
		this.connection.close();
	}

}
