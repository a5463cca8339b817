package io.github.workqueue.core.lincheck;

import io.github.workqueue.core.WorkQueueBuilder;

/**
 * {@link PriorityQueueLincheckTest} on a queue with two levels of fairness keys, against
 * {@link FairQueueModel}: the round-robin turns at both levels race every operation.
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
