package io.github.workqueue.core.lincheck;

import io.github.workqueue.core.WorkQueueBuilder;

/**
 * {@link PriorityQueueLincheckTest} on a queue with two levels of fairness keys, against
 * {@link FairQueueModel}: the round-robin turns at both levels, between keys and between
 * a node's own items and its child, race every operation.
 */
public class FairQueueLincheckTest extends PriorityQueueLincheckTest {

	@Override
	WorkQueueBuilder configure(WorkQueueBuilder builder) {
		return builder.fairness((Integer key) -> FairQueueModel.keys(key));
	}

	@Override
	Class<?> specification() {
		return FairQueueModel.class;
	}

}
