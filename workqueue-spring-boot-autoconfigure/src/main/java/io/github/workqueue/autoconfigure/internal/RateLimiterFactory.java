package io.github.workqueue.autoconfigure.internal;

import java.util.List;

import org.springframework.beans.factory.BeanFactory;

import io.github.workqueue.core.Clock;
import io.github.workqueue.core.ratelimit.BucketRateLimiter;
import io.github.workqueue.core.ratelimit.ExponentialFailureRateLimiter;
import io.github.workqueue.core.ratelimit.FastSlowRateLimiter;
import io.github.workqueue.core.ratelimit.MaxOfRateLimiter;
import io.github.workqueue.core.ratelimit.RateLimiter;
import io.github.workqueue.core.ratelimit.WithMaxWaitRateLimiter;
import io.github.workqueue.spring.InvalidWorkQueueConfigurationException;

/**
 * Builds the core's rate limiters from validated {@link RateLimiterSpec}s.
 *
 * <p>
 * <b>Concurrency.</b> Stateless; thread-safe.
 */
public final class RateLimiterFactory {

	private final Clock clock;

	private final BeanFactory beanFactory;

	public RateLimiterFactory(Clock clock, BeanFactory beanFactory) {
		this.clock = clock;
		this.beanFactory = beanFactory;
	}

	/**
	 * Builds the limiter.
	 * @param spec the validated description
	 * @return a new limiter (or the named bean)
	 */
	public RateLimiter<Object> create(RateLimiterSpec spec) {
		RateLimiter<Object> limiter = createUncapped(spec);
		return (spec.maxWait() != null) ? new WithMaxWaitRateLimiter<>(limiter, spec.maxWait()) : limiter;
	}

	@SuppressWarnings("unchecked")
	private RateLimiter<Object> createUncapped(RateLimiterSpec spec) {
		return switch (spec.type()) {
			case CONTROLLER ->
				new MaxOfRateLimiter<>(List.of(new ExponentialFailureRateLimiter<>(spec.baseDelay(), spec.maxDelay()),
						new BucketRateLimiter<>(spec.qps(), spec.burst(), this.clock)));
			case EXPONENTIAL -> new ExponentialFailureRateLimiter<>(spec.baseDelay(), spec.maxDelay());
			case FAST_SLOW -> new FastSlowRateLimiter<>(spec.fastDelay(), spec.slowDelay(), spec.maxFastAttempts());
			case BUCKET -> new BucketRateLimiter<>(spec.qps(), spec.burst(), this.clock);
			case MAX_OF -> new MaxOfRateLimiter<>(spec.limiters().stream().map(this::create).toList());
			case BEAN -> {
				Object bean = this.beanFactory.getBean(spec.bean());
				if (!(bean instanceof RateLimiter<?>)) {
					throw InvalidWorkQueueConfigurationException.forProperty(spec.path() + ".bean", spec.bean(),
							"names a bean of type " + bean.getClass().getName() + ", not a RateLimiter",
							"Set it to the name of a bean that implements " + RateLimiter.class.getName() + ".");
				}
				yield (RateLimiter<Object>) bean;
			}
		};
	}

}
