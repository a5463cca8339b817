/**
 * Testing an application's {@code @QueueWorker} methods: {@link QueueTester} waits until
 * a queue is idle and records what became of each processing, {@link FakeQueueClock} runs
 * the queues on a fake clock, and {@link EmbeddedRedisQueues} runs them on an embedded
 * Redis. Add {@code io.github.workqueue:workqueue-test} in the {@code test} scope.
 */
@NullMarked
package io.github.workqueue.test;

import org.jspecify.annotations.NullMarked;
