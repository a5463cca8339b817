package io.github.workqueue.redis;

import tools.jackson.databind.ObjectMapper;

/**
 * Items as JSON through an {@link ObjectMapper}, which is thread-safe once configured.
 *
 * @param <T> the type of the items
 */
final class JsonItemCodec<T> implements ItemCodec<T> {

	private final ObjectMapper mapper;

	private final Class<T> type;

	JsonItemCodec(ObjectMapper mapper, Class<T> type) {
		this.mapper = mapper;
		this.type = type;
	}

	@Override
	public String encode(T item) {
		return this.mapper.writeValueAsString(item);
	}

	@Override
	public T decode(String encoded) {
		return this.mapper.readValue(encoded, this.type);
	}

	@Override
	public String toString() {
		return "json(" + this.type.getName() + ")";
	}

}
