package io.github.workqueue.autoconfigure.internal;

import java.util.List;
import java.util.Set;
import java.util.function.Supplier;

import org.jspecify.annotations.Nullable;

import io.github.workqueue.autoconfigure.RateLimiterType;
import io.github.workqueue.autoconfigure.WorkQueueProperties.Backend;
import io.github.workqueue.spring.InvalidWorkQueueConfigurationException;

import io.github.workqueue.autoconfigure.WorkQueueBuilderCustomizer;
import io.github.workqueue.core.Clock;
import io.github.workqueue.core.FairnessKeyExtractor;
import io.github.workqueue.core.RateLimitingQueue;
import io.github.workqueue.core.WorkQueue;
import io.github.workqueue.core.WorkQueueBuilder;
import io.github.workqueue.core.metrics.MetricsProvider;

/**
 * Builds a rate-limiting queue for a name from its resolved settings, the application's
 * clock and metrics provider, then the customizers.
 *
 * <p>
 * <b>Concurrency.</b> Thread-safe; each call builds a new queue.
 */
public final class WorkQueueFactory {

	private final QueueSettingsResolver settings;

	private final RateLimiterFactory rateLimiters;

	private final Clock clock;

	private final MetricsProvider metricsProvider;

	private final List<WorkQueueBuilderCustomizer> customizers;

	private final Supplier<@Nullable RedisBackend> redis;

	private final FairnessExtractors fairness;

	public WorkQueueFactory(QueueSettingsResolver settings, RateLimiterFactory rateLimiters, Clock clock,
			MetricsProvider metricsProvider, List<WorkQueueBuilderCustomizer> customizers,
			Supplier<@Nullable RedisBackend> redis, FairnessExtractors fairness) {
		this.settings = settings;
		this.fairness = fairness;
		this.rateLimiters = rateLimiters;
		this.clock = clock;
		this.metricsProvider = metricsProvider;
		this.customizers = customizers;
		this.redis = redis;
	}

	/**
	 * Builds a queue whose item type is not known.
	 * @param <T> the item type
	 * @param name the queue name
	 * @return a new queue
	 */
	public <T> RateLimitingQueue<T> create(String name) {
		return create(name, null);
	}

	/**
	 * Builds the queue, in memory or on Redis as its settings say. Customizers apply to
	 * in-memory queues.
	 * @param <T> the item type
	 * @param name the queue name
	 * @param itemType the item type (a Redis queue's codec), or {@code null} if unknown
	 * @return a new queue
	 */
	public <T> RateLimitingQueue<T> create(String name, @Nullable Class<?> itemType) {
		QueueSettings queueSettings = this.settings.resolve(name);
		FairnessKeyExtractor<Object> extractor = this.fairness.forQueue(queueSettings, itemType);
		if (queueSettings.backend() == Backend.REDIS) {
			RedisBackend backend = this.redis.get();
			if (backend == null) {
				throw InvalidWorkQueueConfigurationException.forProperty(queueSettings.backendPath(), "redis",
						"needs a Redis connection",
						"Let Spring Boot configure Redis (spring-boot-starter-data-redis with the Lettuce client and "
								+ "spring.data.redis.*), or remove the property to keep the queue in memory.");
			}
			RateLimiterSpec bean = beanLimiter(queueSettings.rateLimiter());
			if (bean != null) {
				throw InvalidWorkQueueConfigurationException.forProperty(bean.path() + ".bean", bean.bean(),
						"is a RateLimiter bean, which queue '" + name + "' cannot use: the queue lives on Redis ("
								+ queueSettings.backendPath() + "), where its limiter runs inside Redis so that "
								+ "every instance shares its state, and a bean's code cannot run there",
						"Configure the limiter in YAML instead (" + bean.path()
								+ ".type: controller, exponential, fast-slow, bucket or max-of, with max-wait if "
								+ "needed), or set " + queueSettings.backendPath()
								+ " to memory to keep the bean's limiter.");
			}
			return backend.create(queueSettings, itemType, this.rateLimiters.create(queueSettings.rateLimiter()),
					this.metricsProvider, extractor);
		}
		WorkQueueBuilder builder = WorkQueue.builder()
			.name(name)
			.clock(this.clock)
			.metricsProvider(this.metricsProvider)
			.rateLimiter(this.rateLimiters.create(queueSettings.rateLimiter()))
			.defaultPriority(queueSettings.defaultPriority());
		if (extractor != null) {
			builder.fairness(extractor);
		}
		for (WorkQueueBuilderCustomizer customizer : this.customizers) {
			customizer.customize(name, builder);
		}
		return builder.buildRateLimiting();
	}

	/** The first limiter of type bean in a limiter's tree, or null. */
	private static @Nullable RateLimiterSpec beanLimiter(RateLimiterSpec spec) {
		if (spec.type() == RateLimiterType.BEAN) {
			return spec;
		}
		for (RateLimiterSpec nested : spec.limiters()) {
			RateLimiterSpec bean = beanLimiter(nested);
			if (bean != null) {
				return bean;
			}
		}
		return null;
	}

	/**
	 * Returns the resolved settings of a queue.
	 * @param name the queue name
	 * @return the settings
	 */
	public QueueSettings settings(String name) {
		return this.settings.resolve(name);
	}

	/**
	 * Returns the names of the queues declared under {@code workqueue.queues}.
	 * @return the names
	 */
	public Set<String> declaredQueueNames() {
		return this.settings.declaredQueueNames();
	}

}
