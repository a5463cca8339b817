package io.github.workqueue.autoconfigure;

import java.util.Arrays;
import java.util.Locale;
import java.util.stream.Collectors;

import org.jspecify.annotations.Nullable;

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

	/**
	 * Returns the value as written in configuration.
	 * @return the lower-case, dashed name
	 */
	public String propertyValue() {
		return name().toLowerCase(Locale.ROOT).replace('_', '-');
	}

	/**
	 * Every value as written in configuration.
	 * @return the values, comma-separated, in declaration order
	 */
	public static String allValues() {
		return Arrays.stream(values()).map(RateLimiterType::propertyValue).collect(Collectors.joining(", "));
	}

}
