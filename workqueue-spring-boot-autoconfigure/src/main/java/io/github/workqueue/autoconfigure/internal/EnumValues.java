package io.github.workqueue.autoconfigure.internal;

import java.util.Arrays;
import java.util.Locale;
import java.util.stream.Collectors;

/**
 * The values of an enum property as they are written in configuration: lower case, with
 * dashes ({@code fast-slow}, {@code max-of}), for the errors that list them.
 *
 * <p>
 * <b>Concurrency.</b> Stateless.
 */
final class EnumValues {

	private EnumValues() {
	}

	/**
	 * Every value of an enum, as written, in declaration order.
	 * @param type the enum
	 * @return the values, comma-separated
	 */
	static String of(Class<?> type) {
		return Arrays.stream(type.getEnumConstants())
			.map((constant) -> ((Enum<?>) constant).name().toLowerCase(Locale.ROOT).replace('_', '-'))
			.collect(Collectors.joining(", "));
	}

}
