package io.github.workqueue.autoconfigure.internal;

import java.util.Arrays;
import java.util.Locale;
import java.util.stream.Collectors;

import org.jspecify.annotations.Nullable;

/**
 * The values of {@code rate-limiter.type}.
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
	 * Parses a configured value, ignoring case and accepting underscores for dashes.
	 * @param value the configured value
	 * @return the type, or null if none matches
	 */
	static @Nullable RateLimiterType parse(String value) {
		String normalized = value.trim().toLowerCase(Locale.ROOT).replace('_', '-');
		for (RateLimiterType type : values()) {
			if (type.propertyValue().equals(normalized)) {
				return type;
			}
		}
		return null;
	}

	static String allValues() {
		return Arrays.stream(values()).map(RateLimiterType::propertyValue).collect(Collectors.joining(", "));
	}

}
