/**
 * JMH benchmarks of workqueue against kubernetes-client/java's work queues and the JDK's
 * queues, run side by side in one JMH run so that results compare as ratios.
 */
@NullMarked
package io.github.workqueue.benchmarks;

import org.jspecify.annotations.NullMarked;
