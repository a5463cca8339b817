package io.github.workqueue.autoconfigure;

/**
 * The values of {@code rate-limiter.type}, written in configuration in lower case with
 * dashes ({@code fast-slow}, {@code max-of}); Spring Boot binds any case and underscores
 * too.
 */
public enum RateLimiterType {

	/** client-go's default controller limiter: max-of exponential and bucket. */
	CONTROLLER,

	/** Per-item exponential backoff. */
	EXPONENTIAL,

	/** Per-item fast then slow. */
	FAST_SLOW,

	/** Overall token bucket. */
	BUCKET,

	/** The longest wait of nested limiters. */
	MAX_OF,

	/** A RateLimiter bean. */
	BEAN;

}
