package io.github.workqueue.core.lincheck;

import java.util.List;

/**
 * {@link PriorityQueueModel} with two levels of fairness keys: an item's parity, then the
 * item itself, as {@link FairQueueLincheckTest}'s extractor gives them.
 */
public class FairQueueModel extends PriorityQueueModel {

	static List<String> keys(int key) {
		return List.of(String.valueOf(key % 2), String.valueOf(key));
	}

	@Override
	List<String> keysOf(int key) {
		return keys(key);
	}

}
