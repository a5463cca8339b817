package io.github.workqueue.redis;

import java.util.Objects;

import tools.jackson.databind.ObjectMapper;

/**
 * Turns items into the strings Redis stores and back. Redis compares items by their
 * encoding, so equal items must encode to equal strings (records and value classes with a
 * fixed property order do, as Jackson writes them).
 *
 * <p>
 * Implementations must be thread-safe. A string that {@link #decode} rejects is parked by
 * the queue and reported, never handed to a worker.
 *
 * @param <T> the type of the items
 */
public interface ItemCodec<T> {

	/**
	 * Encodes an item.
	 * @param item the item, not {@code null}
	 * @return its encoding, equal for equal items
	 */
	String encode(T item);

	/**
	 * Decodes what {@link #encode} produced.
	 * @param encoded the encoding
	 * @return the item
	 * @throws RuntimeException when the string is not an encoding of an item
	 */
	T decode(String encoded);

	/**
	 * Returns the codec of string items, stored as they are.
	 * @return the codec
	 */
	static ItemCodec<String> strings() {
		return StringItemCodec.INSTANCE;
	}

	/**
	 * Returns a codec that stores items as JSON written and read by the given mapper,
	 * such as the application's own.
	 * @param <T> the type of the items
	 * @param mapper the mapper
	 * @param type the class of the items
	 * @return the codec
	 */
	static <T> ItemCodec<T> json(ObjectMapper mapper, Class<T> type) {
		Objects.requireNonNull(mapper, "mapper");
		Objects.requireNonNull(type, "type");
		if (type == String.class) {
			@SuppressWarnings("unchecked")
			ItemCodec<T> strings = (ItemCodec<T>) strings();
			return strings;
		}
		return new JsonItemCodec<>(mapper, type);
	}

}
