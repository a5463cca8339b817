package io.github.workqueue.benchmarks;

/**
 * Item keys made once, outside the measured code.
 */
final class Keys {

	private Keys() {
	}

	/**
	 * Returns distinct boxed keys 0..count-1; the same instances every call within a run,
	 * so that no benchmark measures boxing.
	 * @param count how many
	 * @return the keys
	 */
	static Integer[] distinct(int count) {
		Integer[] keys = new Integer[count];
		for (int i = 0; i < count; i++) {
			keys[i] = Integer.valueOf(i + 1_000_000);
		}
		return keys;
	}

}
