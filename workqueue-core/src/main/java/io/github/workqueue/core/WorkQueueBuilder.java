package io.github.workqueue.core;

import java.time.Duration;
import java.util.Objects;

import org.jspecify.annotations.Nullable;

import io.github.workqueue.core.internal.DefaultDelayingQueue;
import io.github.workqueue.core.internal.DefaultRateLimitingQueue;
import io.github.workqueue.core.internal.DefaultWorkQueue;
import io.github.workqueue.core.metrics.MetricsProvider;
import io.github.workqueue.core.ratelimit.RateLimiter;
import io.github.workqueue.core.ratelimit.RateLimiters;
import io.github.workqueue.core.trace.TraceCapture;

/**
 * Builds queues of each layer. Defaults: no name (and so no metrics), the
 * {@linkplain Clock#system() system clock}, no metrics provider, client-go's
 * {@linkplain RateLimiters#controllerDefault(Clock) controller rate limiter} on the
 * queue's clock, and unfinished work gauges recomputed every 500ms.
 *
 * <p>
 * <b>Concurrency.</b> Not thread-safe; the queues it builds are.
 */
public final class WorkQueueBuilder {

	private String name = "";

	private Clock clock = Clock.system();

	private MetricsProvider metricsProvider = MetricsProvider.noop();

	private Duration unfinishedWorkUpdatePeriod = Duration.ofMillis(500);

	private @Nullable RateLimiter<?> rateLimiter;

	private int defaultPriority;

	private @Nullable FairnessKeyExtractor<?> fairness;

	private @Nullable TraceCapture traceCapture;

	WorkQueueBuilder() {
	}

	/**
	 * Names the queue; metrics are labelled with it and recorded only for named queues.
	 * @param name the name
	 * @return this builder
	 */
	public WorkQueueBuilder name(String name) {
		this.name = Objects.requireNonNull(name, "name");
		return this;
	}

	/**
	 * Sets the clock of every time read and timer.
	 * @param clock the clock
	 * @return this builder
	 */
	public WorkQueueBuilder clock(Clock clock) {
		this.clock = Objects.requireNonNull(clock, "clock");
		return this;
	}

	/**
	 * Sets where metrics go.
	 * @param metricsProvider the provider
	 * @return this builder
	 */
	public WorkQueueBuilder metricsProvider(MetricsProvider metricsProvider) {
		this.metricsProvider = Objects.requireNonNull(metricsProvider, "metricsProvider");
		return this;
	}

	/**
	 * Sets how often the unfinished work gauges are recomputed.
	 * @param period the period, positive
	 * @return this builder
	 */
	public WorkQueueBuilder unfinishedWorkUpdatePeriod(Duration period) {
		if (period.isNegative() || period.isZero()) {
			throw new IllegalArgumentException("unfinishedWorkUpdatePeriod must be positive, was " + period);
		}
		this.unfinishedWorkUpdatePeriod = period;
		return this;
	}

	/**
	 * Sets the rate limiter of rate-limiting queues. The item type is checked when the
	 * queue is built by {@link #buildRateLimiting(RateLimiter)}; prefer that method where
	 * the type matters.
	 * @param rateLimiter the limiter
	 * @return this builder
	 */
	public WorkQueueBuilder rateLimiter(RateLimiter<?> rateLimiter) {
		this.rateLimiter = Objects.requireNonNull(rateLimiter, "rateLimiter");
		return this;
	}

	/**
	 * Sets the priority of adds that name none (every add but
	 * {@link RateLimitingQueue#add(Object, AddOptions)} with a priority). Default 0.
	 * @param priority the default priority
	 * @return this builder
	 */
	public WorkQueueBuilder defaultPriority(int priority) {
		this.defaultPriority = priority;
		return this;
	}

	/**
	 * Serves ready items of one priority round-robin over the fairness keys the extractor
	 * gives (see {@link FairnessKeyExtractor}), on queues of every layer. The item type
	 * is not checked: the extractor must accept the queue's items.
	 * @param extractor the extractor
	 * @return this builder
	 */
	public WorkQueueBuilder fairness(FairnessKeyExtractor<?> extractor) {
		this.fairness = Objects.requireNonNull(extractor, "extractor");
		return this;
	}

	/**
	 * Makes the queue keep each add's trace context for the processing it causes (see
	 * {@link io.github.workqueue.core.trace.TracedQueue}); without it the queue reads and
	 * keeps none.
	 * @param traceCapture reads the adding thread's current context
	 * @return this builder
	 */
	public WorkQueueBuilder traceCapture(TraceCapture traceCapture) {
		this.traceCapture = Objects.requireNonNull(traceCapture, "traceCapture");
		return this;
	}

	/**
	 * Builds a plain FIFO queue.
	 * @param <T> the item type
	 * @return a new queue
	 */
	public <T> WorkQueue<T> build() {
		return new DefaultWorkQueue<>(this.name, this.clock, this.metricsProvider, this.unfinishedWorkUpdatePeriod,
				this.defaultPriority, fairness(), this.traceCapture);
	}

	/**
	 * Builds a delaying queue.
	 * @param <T> the item type
	 * @return a new queue
	 */
	public <T> DelayingQueue<T> buildDelaying() {
		return new DefaultDelayingQueue<>(this.name, this.clock, this.metricsProvider, this.unfinishedWorkUpdatePeriod,
				this.defaultPriority, fairness(), this.traceCapture);
	}

	/**
	 * Builds a rate-limiting queue with the limiter set by
	 * {@link #rateLimiter(RateLimiter)}, or client-go's controller default on this
	 * builder's clock.
	 * @param <T> the item type
	 * @return a new queue
	 */
	@SuppressWarnings("unchecked")
	public <T> RateLimitingQueue<T> buildRateLimiting() {
		RateLimiter<? super T> limiter = (this.rateLimiter != null) ? (RateLimiter<? super T>) this.rateLimiter
				: RateLimiters.controllerDefault(this.clock);
		return buildRateLimiting(limiter);
	}

	/**
	 * Builds a rate-limiting queue with the given limiter.
	 * @param <T> the item type
	 * @param rateLimiter the limiter
	 * @return a new queue
	 */
	public <T> RateLimitingQueue<T> buildRateLimiting(RateLimiter<? super T> rateLimiter) {
		Objects.requireNonNull(rateLimiter, "rateLimiter");
		return new DefaultRateLimitingQueue<>(this.name, this.clock, this.metricsProvider,
				this.unfinishedWorkUpdatePeriod, rateLimiter, this.defaultPriority, fairness(), this.traceCapture);
	}

	@SuppressWarnings("unchecked")
	private <T> @Nullable FairnessKeyExtractor<? super T> fairness() {
		return (FairnessKeyExtractor<? super T>) this.fairness;
	}

}
