package io.github.workqueue.core.internal;

import io.github.workqueue.core.metrics.DropReason;

/**
 * Records nothing; what a queue without metrics calls, so that its hot path does no
 * metrics work.
 */
final class NoopQueueMetrics implements QueueMetrics {

	static final NoopQueueMetrics INSTANCE = new NoopQueueMetrics();

	private NoopQueueMetrics() {
	}

	@Override
	public boolean enabled() {
		return false;
	}

	@Override
	public void depthChanged(int priority, int delta) {
	}

	@Override
	public void added(int count) {
	}

	@Override
	public void taken(long queuedNanos) {
	}

	@Override
	public void finished(long workNanos) {
	}

	@Override
	public void retried() {
	}

	@Override
	public void waiting(int count) {
	}

	@Override
	public void dropped(DropReason reason, int count) {
	}

	@Override
	public void unfinishedWork(long totalNanos, long longestNanos) {
	}

	@Override
	public void oldestReady(long nanos) {
	}

}
