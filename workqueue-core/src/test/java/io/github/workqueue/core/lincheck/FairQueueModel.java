package io.github.workqueue.core.lincheck;

import java.util.List;

/**
 * {@link PriorityQueueModel} with fairness keys of two levels and of different depths, as
 * {@link FairQueueLincheckTest}'s extractor gives them: item 2 has none (a group of its
 * own at the top level), item 1 has {@code odd}, item 3 has {@code odd} then {@code 3};
 * so the root and the node {@code odd} each serve their own items beside a child.
 */
public class FairQueueModel extends PriorityQueueModel {

	static List<String> keys(int key) {
		return switch (key) {
			case 1 -> List.of("odd");
			case 3 -> List.of("odd", "3");
			default -> List.of();
		};
	}

	@Override
	List<String> keysOf(int key) {
		return keys(key);
	}

}
