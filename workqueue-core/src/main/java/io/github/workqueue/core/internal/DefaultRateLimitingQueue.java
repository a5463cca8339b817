package io.github.workqueue.core.internal;

import java.time.Duration;
import java.util.Objects;

import org.jspecify.annotations.Nullable;

import io.github.workqueue.core.AddOptions;
import io.github.workqueue.core.Clock;
import io.github.workqueue.core.FairnessKeyExtractor;
import io.github.workqueue.core.RateLimitingQueue;
import io.github.workqueue.core.metrics.MetricsProvider;
import io.github.workqueue.core.ratelimit.RateLimiter;
import io.github.workqueue.core.trace.TraceCapture;
import io.github.workqueue.core.trace.TraceCarry;

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
		this(name, clock, metricsProvider, unfinishedWorkUpdatePeriod, rateLimiter, 0, null);
	}

	public DefaultRateLimitingQueue(String name, Clock clock, MetricsProvider metricsProvider,
			Duration unfinishedWorkUpdatePeriod, RateLimiter<? super T> rateLimiter, int defaultPriority,
			@Nullable FairnessKeyExtractor<? super T> fairness) {
		this(name, clock, metricsProvider, unfinishedWorkUpdatePeriod, rateLimiter, defaultPriority, fairness, null);
	}

	public DefaultRateLimitingQueue(String name, Clock clock, MetricsProvider metricsProvider,
			Duration unfinishedWorkUpdatePeriod, RateLimiter<? super T> rateLimiter, int defaultPriority,
			@Nullable FairnessKeyExtractor<? super T> fairness, @Nullable TraceCapture traceCapture) {
		super(name, clock, metricsProvider, unfinishedWorkUpdatePeriod, defaultPriority, fairness, traceCapture);
		this.rateLimiter = rateLimiter;
	}

	@Override
	public Duration addRateLimited(T item) {
		Objects.requireNonNull(item, "item");
		String trace = TraceCarry.ofAdd(this.traceCapture);
		DelayTimer toStart;
		Duration delay;
		synchronized (this.lock) {
			delay = this.rateLimiter.when(item);
			toStart = addAfterLocked(item, Nanos.of(delay), this.defaultPriority);
			traceLocked(item, trace);
		}
		start(toStart);
		return delay;
	}

	/**
	 * {@inheritDoc}
	 * <p>
	 * A delay or rate-limiting counts a retry, as {@code addAfter} does; with both, the
	 * shorter wait wins, as in controller-runtime.
	 */
	@Override
	public void add(T item, AddOptions options) {
		Objects.requireNonNull(item, "item");
		int priority = options.priorityOr(this.defaultPriority);
		long delayNanos = Nanos.of(options.delay());
		String trace = TraceCarry.ofAdd(this.traceCapture);
		if (delayNanos <= 0 && !options.isRateLimited()) {
			int outcome;
			synchronized (this.lock) {
				promoteDueLocked();
				outcome = addLocked(item, priority);
				traceLocked(item, trace);
			}
			recordAdd(outcome);
			return;
		}
		DelayTimer toStart;
		synchronized (this.lock) {
			if (options.isRateLimited()) {
				long limited = Nanos.of(this.rateLimiter.when(item));
				if (delayNanos <= 0 || limited < delayNanos) {
					delayNanos = limited;
				}
			}
			toStart = addAfterLocked(item, delayNanos, priority);
			traceLocked(item, trace);
		}
		start(toStart);
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
