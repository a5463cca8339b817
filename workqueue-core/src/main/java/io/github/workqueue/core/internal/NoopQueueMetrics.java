package io.github.workqueue.core.internal;

import io.github.workqueue.core.metrics.DropReason;

/**
 * Records nothing; what a queue without metrics calls, so that its hot path does no
 * metrics work.
 */
final class NoopQueueMetrics implements QueueMetrics<Object> {

	static final NoopQueueMetrics INSTANCE = new NoopQueueMetrics();

	private NoopQueueMetrics() {
	}

	@Override
	public void added(Object item) {
	}

	@Override
	public void taken(Object item) {
	}

	@Override
	public void finished(Object item) {
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
	public void updateUnfinishedWork() {
	}

	@Override
	public boolean enabled() {
		return false;
	}

}
