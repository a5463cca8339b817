package io.github.workqueue.autoconfigure.actuate;

import java.util.Map;

import org.springframework.boot.actuate.endpoint.OperationResponseBody;

/**
 * All queues.
 *
 * @param queues the queues by name
 * @param time when they were read, in milliseconds since the epoch on this instance's
 * clock (the clock of the samples in {@code recent}): the dashboard draws each chart's
 * latest point at it
 */
public record QueuesDescriptor(Map<String, QueueDescriptor> queues, long time) implements OperationResponseBody {

}
