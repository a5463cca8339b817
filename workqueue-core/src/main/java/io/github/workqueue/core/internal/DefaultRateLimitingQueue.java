package io.github.workqueue.core.internal;

import java.time.Duration;
import java.util.Objects;

import io.github.workqueue.core.Clock;
import io.github.workqueue.core.RateLimitingQueue;
import io.github.workqueue.core.metrics.MetricsProvider;
import io.github.workqueue.core.ratelimit.RateLimiter;

/**
 * The rate-limiting layer: retries wait as long as the rate limiter says.
 *
 * <p>
 * <b>Concurrency.</b> Thread-safe. The limiter is called under the queue's lock, so that
 * {@code addRateLimited} (the limiter's {@code when} and the delayed add together),
 * {@code forget} and {@code numRequeues} each take effect at one point, like every other
 * operation; the limiter must therefore be quick and must not call back into a queue.
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
	public Duration addRateLimited(T item) {
		Objects.requireNonNull(item, "item");
		DelayTimer toStart;
		Duration delay;
		synchronized (this.lock) {
			delay = this.rateLimiter.when(item);
			toStart = addAfterLocked(item, Nanos.of(delay));
		}
		start(toStart);
		return delay;
	}

	@Override
	public void forget(T item) {
		synchronized (this.lock) {
			this.rateLimiter.forget(item);
		}
	}

	@Override
	public int numRequeues(T item) {
		synchronized (this.lock) {
			return this.rateLimiter.numRequeues(item);
		}
	}

	@Override
	public RateLimiter<? super T> rateLimiter() {
		return this.rateLimiter;
	}

}
