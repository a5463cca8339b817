package io.github.workqueue.autoconfigure;

import tools.jackson.databind.json.JsonMapper;

import io.github.workqueue.redis.ItemCodec;

/**
 * How each Redis queue's items are stored: the codec of a queue's item type. Redis
 * compares items by their stored form, so that form is the queue's identity for a key:
 * deduplication, the in-flight lease, the dead letters. It must not change when the
 * application's other settings do.
 * <p>
 * The default ({@link #json()}) writes strings as they are and any other type as JSON
 * through a mapper of its own with Jackson's defaults, never the application's
 * {@code JsonMapper}: a change of {@code spring.jackson.*} (naming strategy, inclusion, a
 * module) leaves the stored form of every key unchanged. Declare a bean of this type to
 * pin another form; see docs/redis.md ("Item codecs") for changing it safely.
 *
 * <p>
 * <b>Concurrency.</b> Implementations must be thread-safe, and so must the codecs they
 * return; each queue asks once, when it is built.
 */
public interface RedisItemCodecs {

	/**
	 * The codec of a queue's items.
	 * @param <T> the item type
	 * @param queueName the queue's name
	 * @param itemType the item type ({@code String} when the queue's type is not known)
	 * @return the codec, thread-safe
	 */
	<T> ItemCodec<T> codecFor(String queueName, Class<T> itemType);

	/**
	 * Strings as they are, other types as JSON through a mapper of this codec's own, with
	 * Jackson's defaults.
	 * @return the codecs
	 */
	static RedisItemCodecs json() {
		JsonMapper mapper = JsonMapper.builder().build();
		return new RedisItemCodecs() {

			@Override
			public <T> ItemCodec<T> codecFor(String queueName, Class<T> itemType) {
				return ItemCodec.json(mapper, itemType);
			}

			@Override
			public String toString() {
				return "RedisItemCodecs.json()";
			}

		};
	}

}
