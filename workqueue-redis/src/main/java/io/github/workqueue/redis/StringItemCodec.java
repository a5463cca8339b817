package io.github.workqueue.redis;

/**
 * Strings stored as they are. Stateless and thread-safe.
 */
enum StringItemCodec implements ItemCodec<String> {

	INSTANCE;

	@Override
	public String encode(String item) {
		return item;
	}

	@Override
	public String decode(String encoded) {
		return encoded;
	}

	@Override
	public String toString() {
		return "strings";
	}

}
