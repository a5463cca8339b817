package io.github.workqueue.spring;

import java.util.List;
import java.util.Optional;

import io.github.workqueue.core.ItemLease;

/**
 * What a {@link QueueWorker} method may know about the item it processes, when it takes a
 * second parameter of this type: {@code void handle(String key, WorkContext context)}.
 * Made by the worker container for one call on the worker's thread; immutable apart from
 * the lease, which is a live view.
 *
 * @param queueName the queue's name
 * @param attempt this attempt's number: 1, plus the failed attempts since the item's last
 * success (counted queue-wide on a queue shared by several instances)
 * @param priority the priority the item was queued at
 * @param fairnessKeys the item's fairness keys, empty when the queue has no fairness
 * @param lease on a queue with leases (Redis), this processing's lease: its fencing
 * token, to pass to a store that fences writes, its deadline and liveness (it is renewed
 * while the method runs)
 */
public record WorkContext(String queueName, int attempt, int priority, List<String> fairnessKeys,
		Optional<ItemLease> lease) {

	public WorkContext {
		fairnessKeys = List.copyOf(fairnessKeys);
	}

}
