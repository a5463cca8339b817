/**
 * The workqueue dashboard: a static page served from the starter's jar that reads and
 * changes the queues only through the {@code workqueues} Actuator endpoint.
 */
@NullMarked
package io.github.workqueue.autoconfigure.dashboard;

import org.jspecify.annotations.NullMarked;
