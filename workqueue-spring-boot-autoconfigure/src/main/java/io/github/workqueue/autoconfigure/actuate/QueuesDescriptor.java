package io.github.workqueue.autoconfigure.actuate;

import java.util.Map;

/**
 * All queues.
 *
 * @param queues the queues by name
 */
public record QueuesDescriptor(Map<String, QueueDescriptor> queues) {

}
