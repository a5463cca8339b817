package io.github.workqueue.redis.internal;

import org.jspecify.annotations.Nullable;

/**
 * A thread waiting in {@link Batcher#take}: waiting until it is served a grant or
 * cancelled (timeout, interrupt, shutdown), whichever comes first; then never again.
 * Thread-safe: its fields are guarded by its monitor, on which its thread waits.
 */
final class Taker {

	boolean waiting = true;

	/** A batch that asked Redis for this taker was answered. */
	boolean tried;

	Batcher.@Nullable Grant grant;

	synchronized void tried() {
		this.tried = true;
		notifyAll();
	}

	synchronized boolean isWaiting() {
		return this.waiting;
	}

	synchronized boolean serve(Batcher.Grant served) {
		if (!this.waiting) {
			return false;
		}
		this.waiting = false;
		this.grant = served;
		notifyAll();
		return true;
	}

	synchronized void cancel() {
		this.waiting = false;
		notifyAll();
	}

}
