package io.github.workqueue.autoconfigure.internal;

import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.function.Predicate;

import org.jspecify.annotations.Nullable;

import io.github.workqueue.autoconfigure.RateLimiterType;
import io.github.workqueue.autoconfigure.WorkQueueProperties;
import io.github.workqueue.autoconfigure.WorkQueueProperties.Backend;
import io.github.workqueue.autoconfigure.WorkQueueProperties.QueueProperties;
import io.github.workqueue.autoconfigure.RateLimiterProperties;
import io.github.workqueue.autoconfigure.internal.QueueSettings.RedisSettings;
import io.github.workqueue.spring.InvalidWorkQueueConfigurationException;

/**
 * Turns {@link WorkQueueProperties} into validated {@link QueueSettings}: each value a
 * queue leaves out comes from {@code workqueue.defaults}, then from the built-in default.
 * Every error names the property it came from (the queue's own or the default's) and the
 * fix.
 *
 * <p>
 * <b>Concurrency.</b> Immutable once built; thread-safe.
 */
public final class QueueSettingsResolver {

	private static final String DEFAULTS_PATH = "workqueue.defaults";

	private final WorkQueueProperties properties;

	private final Predicate<String> beanExists;

	private final @Nullable ClassLoader classLoader;

	/**
	 * Creates a resolver.
	 * @param properties the bound properties
	 * @param beanExists tells whether a bean of the given name is defined, for limiters
	 * of type bean
	 * @param classLoader the application's class loader, where Redis support is looked
	 * for
	 */
	public QueueSettingsResolver(WorkQueueProperties properties, Predicate<String> beanExists,
			@Nullable ClassLoader classLoader) {
		this.properties = properties;
		this.beanExists = beanExists;
		this.classLoader = classLoader;
	}

	/**
	 * Validates the defaults and every declared queue.
	 * @throws InvalidWorkQueueConfigurationException for the first invalid value
	 */
	public void validateAll() {
		Duration shutdownTimeout = this.properties.getShutdown().getTimeout();
		if (shutdownTimeout.isNegative()) {
			throw InvalidWorkQueueConfigurationException.forProperty("workqueue.shutdown.timeout", shutdownTimeout,
					"must not be negative",
					"Set how long shutdown may wait for items in flight, for example 30s, or 0 not to wait.");
		}
		Class<?> defaultItemType = this.properties.getDefaults().getItemType();
		if (defaultItemType != null) {
			throw InvalidWorkQueueConfigurationException.forProperty(DEFAULTS_PATH + ".item-type",
					defaultItemType.getName(), "is a property of one queue, not a default",
					"Set workqueue.queues.<name>.item-type on the queue whose items have that type.");
		}
		resolve(null, this.properties.getDefaults(), DEFAULTS_PATH);
		this.properties.getQueues().keySet().forEach(this::resolve);
	}

	/**
	 * Returns the names of the queues declared under {@code workqueue.queues}.
	 * @return the names
	 */
	public Set<String> declaredQueueNames() {
		return this.properties.getQueues().keySet();
	}

	/**
	 * Returns the settings of a queue; a queue that is not declared gets the defaults.
	 * @param name the queue name
	 * @return the settings
	 * @throws InvalidWorkQueueConfigurationException if a value is invalid
	 */
	public QueueSettings resolve(String name) {
		QueueProperties own = this.properties.getQueues().get(name);
		if (own == null) {
			return resolve(name, this.properties.getDefaults(), DEFAULTS_PATH);
		}
		return resolve(name, own, "workqueue.queues." + name);
	}

	private QueueSettings resolve(@Nullable String name, QueueProperties own, String path) {
		QueueProperties defaults = this.properties.getDefaults();
		int workers = pick(own.getWorkers(), defaults.getWorkers(), QueueDefaults.WORKERS);
		if (workers < 1) {
			throw invalid(own.getWorkers(), path, DEFAULTS_PATH, ".workers", workers, "must be at least 1",
					"Set it to the number of worker threads the queue should have, 1 or more.");
		}
		Integer maxRetries = (own.getMaxRetries() != null) ? own.getMaxRetries() : defaults.getMaxRetries();
		if (maxRetries != null && maxRetries < 0) {
			throw invalid(own.getMaxRetries(), path, DEFAULTS_PATH, ".max-retries", maxRetries, "must not be negative",
					"Set it to 0 or more, or remove it to retry forever with the rate limiter's backoff.");
		}
		checkThrowables(defaults.getNotRetryable(), DEFAULTS_PATH + ".not-retryable");
		checkThrowables(own.getNotRetryable(), path + ".not-retryable");
		LinkedHashSet<Class<? extends Throwable>> notRetryable = new LinkedHashSet<>(defaults.getNotRetryable());
		notRetryable.addAll(own.getNotRetryable());
		RateLimiterSpec limiter = resolveLimiter(own.getRateLimiter(), path + ".rate-limiter", true);
		Backend backend = pick(own.getBackend(), defaults.getBackend(), QueueDefaults.BACKEND);
		String backendPath = where(own.getBackend(), path, DEFAULTS_PATH) + ".backend";
		if (backend == Backend.REDIS && !RedisBackend.isAvailable(this.classLoader)) {
			throw InvalidWorkQueueConfigurationException.forProperty(backendPath, "redis",
					"needs Redis support on the classpath",
					"Add the dependencies io.github.workqueue:workqueue-redis and "
							+ "org.springframework.boot:spring-boot-starter-data-redis (which configures the "
							+ "connection from spring.data.redis.*), or remove the property to keep the queue in memory.");
		}
		int defaultPriority = pick(own.getDefaultPriority(), defaults.getDefaultPriority(),
				QueueDefaults.DEFAULT_PRIORITY);
		String fairness = (own.getFairness() != null) ? own.getFairness() : defaults.getFairness();
		String fairnessPath = where(own.getFairness(), path, DEFAULTS_PATH) + ".fairness";
		if (fairness != null && !this.beanExists.test(fairness)) {
			throw InvalidWorkQueueConfigurationException.forProperty(fairnessPath, fairness, "names no bean",
					"Declare a bean named '" + fairness + "' that implements "
							+ "io.github.workqueue.core.FairnessKeyExtractor for the queue's item type, "
							+ "or remove the property.");
		}
		return new QueueSettings((name != null) ? name : "", workers, maxRetries, List.copyOf(notRetryable), limiter,
				backend, backendPath, resolveRedis(own, path), defaultPriority, fairness, fairnessPath);
	}

	private RedisSettings resolveRedis(QueueProperties own, String path) {
		QueueProperties defaults = this.properties.getDefaults();
		Duration lease = pick(own.getLeaseDuration(), defaults.getLeaseDuration(), QueueDefaults.LEASE_DURATION);
		if (lease.compareTo(Duration.ofMillis(100)) < 0) {
			throw invalid(own.getLeaseDuration(), path, DEFAULTS_PATH, ".lease-duration", lease,
					"must be at least 100ms",
					"Set how long an item held by a crashed instance waits before it is delivered again, for "
							+ "example 30s; the lease is renewed every third of it while the item is processing.");
		}
		int maxRedeliveries = pick(own.getMaxRedeliveries(), defaults.getMaxRedeliveries(),
				QueueDefaults.MAX_REDELIVERIES);
		if (maxRedeliveries < 0) {
			throw invalid(own.getMaxRedeliveries(), path, DEFAULTS_PATH, ".max-redeliveries", maxRedeliveries,
					"must not be negative",
					"Set how many times in a row an item may be delivered again after its lease expired, 0 or more.");
		}
		String prefix = pick(own.getKeyPrefix(), defaults.getKeyPrefix(), QueueDefaults.KEY_PREFIX);
		if (prefix.isBlank() || prefix.contains("{") || prefix.contains("}")) {
			throw invalid(own.getKeyPrefix(), path, DEFAULTS_PATH, ".key-prefix", prefix,
					"must be non-blank and without braces",
					"Set the first part of the queue's Redis keys, for example the application's name.");
		}
		int shards = pick(own.getShards(), defaults.getShards(), QueueDefaults.SHARDS);
		if (shards < 1 || shards > 1024) {
			throw invalid(own.getShards(), path, DEFAULTS_PATH, ".shards", shards, "must be from 1 to 1024",
					"Set how many shards (Redis Cluster masters) the queue is spread over; 1 keeps one FIFO.");
		}
		int prefetch = pick(own.getPrefetch(), defaults.getPrefetch(), QueueDefaults.PREFETCH);
		if (prefetch < 0 || prefetch > QueueDefaults.MOST_PREFETCH) {
			throw invalid(own.getPrefetch(), path, DEFAULTS_PATH, ".prefetch", prefetch,
					"must be from 0 to " + QueueDefaults.MOST_PREFETCH,
					"Set how many items an instance may lease ahead of its waiting workers; 0 keeps the "
							+ "queue's order exact across instances.");
		}
		boolean adaptivePrefetch = pick(own.getAdaptivePrefetch(), defaults.getAdaptivePrefetch(),
				QueueDefaults.ADAPTIVE_PREFETCH);
		int maxAsyncAdds = pick(own.getMaxAsyncAdds(), defaults.getMaxAsyncAdds(), QueueDefaults.MAX_ASYNC_ADDS);
		if (maxAsyncAdds < 1) {
			throw invalid(own.getMaxAsyncAdds(), path, DEFAULTS_PATH, ".max-async-adds", maxAsyncAdds,
					"must be at least 1",
					"Set how many asynchronous adds an instance may have unanswered per shard, for example 1024.");
		}
		int replicasAck = pick(own.getReplicasAck(), defaults.getReplicasAck(), QueueDefaults.REPLICAS_ACK);
		if (replicasAck < 0) {
			throw invalid(own.getReplicasAck(), path, DEFAULTS_PATH, ".replicas-ack", replicasAck,
					"must not be negative",
					"Set how many replicas must confirm each add and done before it returns; 0 waits for none.");
		}
		Duration replicasAckTimeout = pick(own.getReplicasAckTimeout(), defaults.getReplicasAckTimeout(),
				QueueDefaults.REPLICAS_ACK_TIMEOUT);
		if (replicasAckTimeout.toMillis() < 1 || replicasAckTimeout.compareTo(Duration.ofMinutes(1)) > 0) {
			throw invalid(own.getReplicasAckTimeout(), path, DEFAULTS_PATH, ".replicas-ack-timeout", replicasAckTimeout,
					"must be from 1ms to 1m",
					"Set how long an add or done waits for its replicas, for example 1s; keep it well under "
							+ "spring.data.redis.timeout.");
		}
		return new RedisSettings(lease, maxRedeliveries, prefix, shards, prefetch, adaptivePrefetch, maxAsyncAdds,
				replicasAck, replicasAckTimeout);
	}

	private RateLimiterSpec resolveLimiter(RateLimiterProperties own, String path, boolean inheritsType) {
		RateLimiterProperties defaults = this.properties.getDefaults().getRateLimiter();
		String defaultsPath = DEFAULTS_PATH + ".rate-limiter";
		RateLimiterType type = (own.getType() != null) ? own.getType() : inheritsType
				? ((defaults.getType() != null) ? defaults.getType() : QueueDefaults.RATE_LIMITER_TYPE) : null;
		if (type == null) {
			throw InvalidWorkQueueConfigurationException.forProperty(path + ".type", "none",
					"is required for each limiter of max-of",
					"Set " + path + ".type to one of: " + EnumValues.of(RateLimiterType.class) + ".");
		}
		boolean typeInherited = own.getType() == null;
		Duration baseDelay = pick(own.getBaseDelay(), defaults.getBaseDelay(), QueueDefaults.BASE_DELAY);
		Duration maxDelay = pick(own.getMaxDelay(), defaults.getMaxDelay(), QueueDefaults.MAX_DELAY);
		double qps = pick(own.getQps(), defaults.getQps(), QueueDefaults.QPS);
		int burst = pick(own.getBurst(), defaults.getBurst(), QueueDefaults.BURST);
		Duration fastDelay = pick(own.getFastDelay(), defaults.getFastDelay(), QueueDefaults.FAST_DELAY);
		Duration slowDelay = pick(own.getSlowDelay(), defaults.getSlowDelay(), QueueDefaults.SLOW_DELAY);
		int maxFastAttempts = pick(own.getMaxFastAttempts(), defaults.getMaxFastAttempts(),
				QueueDefaults.MAX_FAST_ATTEMPTS);
		Duration maxWait = (own.getMaxWait() != null) ? own.getMaxWait()
				: (inheritsType ? defaults.getMaxWait() : null);
		String bean = (own.getBean() != null) ? own.getBean() : (typeInherited ? defaults.getBean() : null);
		List<RateLimiterProperties> nested = !own.getLimiters().isEmpty() ? own.getLimiters()
				: (typeInherited ? defaults.getLimiters() : List.of());
		String nestedPath = (!own.getLimiters().isEmpty() || !typeInherited) ? path : defaultsPath;

		if (maxWait != null && maxWait.isNegative()) {
			throw invalid(own.getMaxWait(), path, defaultsPath, ".max-wait", maxWait, "must not be negative",
					"Set it to 0 or more, or remove it for no cap.");
		}
		List<RateLimiterSpec> limiters = new ArrayList<>();
		switch (type) {
			case CONTROLLER, EXPONENTIAL -> {
				checkExponential(own, path, defaultsPath, baseDelay, maxDelay);
				if (type == RateLimiterType.CONTROLLER) {
					checkBucket(own, path, defaultsPath, qps, burst);
				}
			}
			case BUCKET -> checkBucket(own, path, defaultsPath, qps, burst);
			case FAST_SLOW -> checkFastSlow(own, path, defaultsPath, fastDelay, slowDelay, maxFastAttempts);
			case MAX_OF -> {
				if (nested.isEmpty()) {
					throw InvalidWorkQueueConfigurationException.forProperty(path + ".limiters", "[]",
							"is empty, but a max-of limiter needs at least one limiter",
							"Add limiters under " + path + ".limiters, each with a type, for example "
									+ "{ type: exponential, base-delay: 10ms, max-delay: 60s }.");
				}
				for (int i = 0; i < nested.size(); i++) {
					limiters.add(resolveLimiter(nested.get(i), nestedPath + ".limiters[" + i + "]", false));
				}
			}
			case BEAN -> {
				if (bean == null || bean.isBlank()) {
					throw InvalidWorkQueueConfigurationException.forProperty(path + ".bean", "none",
							"is required for a limiter of type bean",
							"Set " + path + ".bean to the name of a RateLimiter bean.");
				}
				if (!this.beanExists.test(bean)) {
					String where = where(own.getBean(), path, defaultsPath);
					throw InvalidWorkQueueConfigurationException.forProperty(where + ".bean", bean,
							"names no bean in the application context", "Define a RateLimiter bean named '" + bean
									+ "', or set " + where + ".bean to the name of an existing one.");
				}
			}
		}
		return new RateLimiterSpec(path, type, baseDelay, maxDelay, qps, burst, fastDelay, slowDelay, maxFastAttempts,
				maxWait, bean, List.copyOf(limiters));
	}

	private void checkExponential(RateLimiterProperties own, String path, String defaultsPath, Duration baseDelay,
			Duration maxDelay) {
		if (baseDelay.isNegative()) {
			throw invalid(own.getBaseDelay(), path, defaultsPath, ".base-delay", baseDelay, "must not be negative",
					"Set it to the first retry's wait, for example 5ms.");
		}
		if (baseDelay.compareTo(maxDelay) > 0) {
			String where = where(own.getBaseDelay(), path, defaultsPath);
			throw InvalidWorkQueueConfigurationException.forProperty(where + ".base-delay", baseDelay,
					"is greater than max-delay (" + maxDelay + ")",
					"Set " + where + ".base-delay to at most max-delay, or raise max-delay.");
		}
	}

	private void checkBucket(RateLimiterProperties own, String path, String defaultsPath, double qps, int burst) {
		if (!(qps > 0) || Double.isInfinite(qps)) {
			throw invalid(own.getQps(), path, defaultsPath, ".qps", qps, "must be greater than 0",
					"Set it to the number of retries allowed per second overall, for example 10.");
		}
		if (burst < 1) {
			throw invalid(own.getBurst(), path, defaultsPath, ".burst", burst, "must be at least 1",
					"Set it to the bucket size, 1 or more, for example 100.");
		}
	}

	private void checkFastSlow(RateLimiterProperties own, String path, String defaultsPath, Duration fastDelay,
			Duration slowDelay, int maxFastAttempts) {
		if (fastDelay.isNegative()) {
			throw invalid(own.getFastDelay(), path, defaultsPath, ".fast-delay", fastDelay, "must not be negative",
					"Set it to 0 or more.");
		}
		if (slowDelay.isNegative()) {
			throw invalid(own.getSlowDelay(), path, defaultsPath, ".slow-delay", slowDelay, "must not be negative",
					"Set it to 0 or more.");
		}
		if (maxFastAttempts < 0) {
			throw invalid(own.getMaxFastAttempts(), path, defaultsPath, ".max-fast-attempts", maxFastAttempts,
					"must not be negative", "Set it to 0 or more.");
		}
	}

	private static <V> V pick(@Nullable V own, @Nullable V inherited, V builtIn) {
		if (own != null) {
			return own;
		}
		return (inherited != null) ? inherited : builtIn;
	}

	/** The path a value came from: the queue's own if it set one, else the defaults'. */
	private static String where(@Nullable Object own, String ownPath, String inheritedPath) {
		return (own != null) ? ownPath : inheritedPath;
	}

	/**
	 * An error about a value, named where it was set: the queue's own or the defaults.
	 */
	private static void checkThrowables(List<? extends Class<?>> types, String property) {
		for (int i = 0; i < types.size(); i++) {
			Class<?> type = types.get(i);
			if (!Throwable.class.isAssignableFrom(type)) {
				throw InvalidWorkQueueConfigurationException.forProperty(property + "[" + i + "]", type.getName(),
						"is not an exception type",
						"List exception classes (subclasses of java.lang.Throwable) that should never be retried.");
			}
		}
	}

	private static InvalidWorkQueueConfigurationException invalid(@Nullable Object own, String ownPath,
			String inheritedPath, String property, Object value, String problem, String fix) {
		String where = where(own, ownPath, inheritedPath) + property;
		return InvalidWorkQueueConfigurationException.forProperty(where, value, problem, fix);
	}

}
