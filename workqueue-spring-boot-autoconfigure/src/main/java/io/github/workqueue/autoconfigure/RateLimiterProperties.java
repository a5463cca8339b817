package io.github.workqueue.autoconfigure;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import org.jspecify.annotations.Nullable;

/**
 * A rate limiter: client-go's limiters by type, what each type reads, and a cap.
 */
public class RateLimiterProperties {

	/**
	 * Limiter type: controller (max-of exponential and bucket), exponential, fast-slow,
	 * bucket, max-of, or bean.
	 */
	private @Nullable RateLimiterType type;

	/**
	 * First wait of the exponential limiter (exponential, controller).
	 */
	private @Nullable Duration baseDelay;

	/**
	 * Longest wait of the exponential limiter (exponential, controller).
	 */
	private @Nullable Duration maxDelay;

	/**
	 * Tokens per second of the overall bucket (bucket, controller).
	 */
	private @Nullable Double qps;

	/**
	 * Size of the overall bucket (bucket, controller).
	 */
	private @Nullable Integer burst;

	/**
	 * Wait of the first attempts (fast-slow).
	 */
	private @Nullable Duration fastDelay;

	/**
	 * Wait of the later attempts (fast-slow).
	 */
	private @Nullable Duration slowDelay;

	/**
	 * Number of attempts that wait fast-delay (fast-slow).
	 */
	private @Nullable Integer maxFastAttempts;

	/**
	 * Cap on the wait of any limiter type; absent for no cap.
	 */
	private @Nullable Duration maxWait;

	/**
	 * Name of a RateLimiter bean to use (bean).
	 */
	private @Nullable String bean;

	/**
	 * The limiters whose longest wait counts (max-of); each inherits the defaults' values
	 * but not their type.
	 */
	private List<RateLimiterProperties> limiters = new ArrayList<>();

	public @Nullable RateLimiterType getType() {
		return this.type;
	}

	public void setType(@Nullable RateLimiterType type) {
		this.type = type;
	}

	public @Nullable Duration getBaseDelay() {
		return this.baseDelay;
	}

	public void setBaseDelay(@Nullable Duration baseDelay) {
		this.baseDelay = baseDelay;
	}

	public @Nullable Duration getMaxDelay() {
		return this.maxDelay;
	}

	public void setMaxDelay(@Nullable Duration maxDelay) {
		this.maxDelay = maxDelay;
	}

	public @Nullable Double getQps() {
		return this.qps;
	}

	public void setQps(@Nullable Double qps) {
		this.qps = qps;
	}

	public @Nullable Integer getBurst() {
		return this.burst;
	}

	public void setBurst(@Nullable Integer burst) {
		this.burst = burst;
	}

	public @Nullable Duration getFastDelay() {
		return this.fastDelay;
	}

	public void setFastDelay(@Nullable Duration fastDelay) {
		this.fastDelay = fastDelay;
	}

	public @Nullable Duration getSlowDelay() {
		return this.slowDelay;
	}

	public void setSlowDelay(@Nullable Duration slowDelay) {
		this.slowDelay = slowDelay;
	}

	public @Nullable Integer getMaxFastAttempts() {
		return this.maxFastAttempts;
	}

	public void setMaxFastAttempts(@Nullable Integer maxFastAttempts) {
		this.maxFastAttempts = maxFastAttempts;
	}

	public @Nullable Duration getMaxWait() {
		return this.maxWait;
	}

	public void setMaxWait(@Nullable Duration maxWait) {
		this.maxWait = maxWait;
	}

	public @Nullable String getBean() {
		return this.bean;
	}

	public void setBean(@Nullable String bean) {
		this.bean = bean;
	}

	public List<RateLimiterProperties> getLimiters() {
		return this.limiters;
	}

	public void setLimiters(List<RateLimiterProperties> limiters) {
		this.limiters = limiters;
	}

}
