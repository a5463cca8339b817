package io.github.workqueue.core.internal;

import java.time.Duration;

import io.github.workqueue.core.Clock;
import io.github.workqueue.core.metrics.MetricsProvider;
import io.github.workqueue.core.RateLimitingQueue;
import io.github.workqueue.core.ratelimit.RateLimiter;

/**
 * The rate-limiting layer: retries wait as long as the rate limiter says.
 *
 * <p>
 * <b>Concurrency.</b> Thread-safe; the limiter is called without the queue's lock.
 *
 * @param <T> the item type
 */
public class DefaultRateLimitingQueue<T> extends DefaultDelayingQueue<T> implements RateLimitingQueue<T> {

	private final RateLimiter<? super T> rateLimiter;

	public DefaultRateLimitingQueue(String name, Clock clock, MetricsProvider metricsProvider,
			Duration unfinishedWorkUpdatePeriod, RateLimiter<? super T> rateLimiter) {
		super(name, clock, metricsProvider, unfinishedWorkUpdatePeriod);
		this.rateLimiter = rateLimiter;
	}

	@Override
	public void addRateLimited(T item) {
		addAfter(item, this.rateLimiter.when(item));
	}

	@Override
	public void forget(T item) {
		this.rateLimiter.forget(item);
	}

	@Override
	public int numRequeues(T item) {
		return this.rateLimiter.numRequeues(item);
	}

	@Override
	public RateLimiter<? super T> rateLimiter() {
		return this.rateLimiter;
	}

}
