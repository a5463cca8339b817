package io.github.workqueue.core.lincheck;

import java.util.List;

/**
 * {@link PriorityQueueModel} with fairness keys of two levels and of different depths, as
 * {@link FairQueueLincheckTest}'s extractor gives them, by the item modulo 4: 1 has
 * {@code odd}, 2 none (a group of its own at the top level), 3 {@code odd} then the item,
 * 0 {@code even} then the item. So the root and the node {@code odd} each serve their own
 * items beside their children; the model checks' items 1 to 3 meet all three depths, and
 * {@link PriorityModelSequentialTest}'s 1 to 8 two items in each group.
 */
public class FairQueueModel extends PriorityQueueModel {

	static List<String> keys(int key) {
		return switch (key % 4) {
			case 1 -> List.of("odd");
			case 2 -> List.of();
			case 3 -> List.of("odd", String.valueOf(key));
			default -> List.of("even", String.valueOf(key));
		};
	}

	@Override
	List<String> keysOf(int key) {
		return keys(key);
	}

}
