package io.github.workqueue.core.ratelimit;

import java.time.Duration;
import java.util.Objects;

import io.github.bucket4j.Bandwidth;
import io.github.bucket4j.Bucket;
import io.github.bucket4j.TimeMeter;

import io.github.workqueue.core.Clock;

/**
 * An overall token bucket shared by all items: client-go's {@code BucketRateLimiter}. The
 * bucket holds {@code burst} tokens, starts full and refills at {@code qps} tokens a
 * second; each {@link #when} reserves one token and returns how long until it is there.
 * Backed by Bucket4j, driven by the given clock.
 *
 * <p>
 * <b>Concurrency.</b> Thread-safe (Bucket4j's lock-free bucket).
 *
 * @param <T> the item type
 */
public final class BucketRateLimiter<T> implements RateLimiter<T> {

	private final Bucket bucket;

	private final double qps;

	private final int burst;

	/**
	 * Creates the limiter.
	 * @param qps tokens added per second, positive
	 * @param burst the bucket size, at least 1
	 * @param clock the time source
	 */
	public BucketRateLimiter(double qps, int burst, Clock clock) {
		Objects.requireNonNull(clock, "clock");
		if (!(qps > 0) || Double.isInfinite(qps)) {
			throw new IllegalArgumentException("qps must be a positive finite number, was " + qps);
		}
		if (burst < 1) {
			throw new IllegalArgumentException("burst must be at least 1, was " + burst);
		}
		long nanosPerToken = Math.max(1, Math.round(1e9 / qps));
		this.bucket = Bucket.builder()
			.addLimit(Bandwidth.builder().capacity(burst).refillGreedy(1, Duration.ofNanos(nanosPerToken)).build())
			.withCustomTimePrecision(new ClockTimeMeter(clock))
			.build();
		this.qps = qps;
		this.burst = burst;
	}

	@Override
	public Duration when(T item) {
		return Duration.ofNanos(this.bucket.consumeIgnoringRateLimits(1));
	}

	@Override
	public void forget(T item) {
	}

	@Override
	public int numRequeues(T item) {
		return 0;
	}

	/**
	 * Returns the tokens added per second.
	 * @return the tokens added per second
	 */
	public double qps() {
		return this.qps;
	}

	/**
	 * Returns the bucket's capacity.
	 * @return the bucket's capacity
	 */
	public int burst() {
		return this.burst;
	}

	@Override
	public String toString() {
		return "bucket(qps=" + this.qps + ", burst=" + this.burst + ")";
	}

	private static final class ClockTimeMeter implements TimeMeter {

		private final Clock clock;

		ClockTimeMeter(Clock clock) {
			this.clock = clock;
		}

		@Override
		public long currentTimeNanos() {
			return this.clock.nanoTime();
		}

		@Override
		public boolean isWallClockBased() {
			return false;
		}

	}

}
