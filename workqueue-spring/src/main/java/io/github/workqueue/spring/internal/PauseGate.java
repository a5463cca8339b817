package io.github.workqueue.spring.internal;

import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;

/**
 * Whether a container's workers may take items: open, paused (workers wait at the gate
 * until it opens) or stopping (a paused worker exits instead of waiting).
 *
 * <p>
 * <b>Concurrency.</b> Thread-safe. Both flags are written under the gate's lock, which
 * also carries the condition paused workers wait on, and read anywhere (volatile).
 */
final class PauseGate {

	private final ReentrantLock lock = new ReentrantLock();

	private final Condition opened = this.lock.newCondition();

	/** Written under {@code lock}. */
	private volatile boolean paused;

	/** Written under {@code lock}. */
	private volatile boolean stopping;

	void pause() {
		this.lock.lock();
		try {
			this.paused = true;
		}
		finally {
			this.lock.unlock();
		}
	}

	void resume() {
		this.lock.lock();
		try {
			this.paused = false;
			this.opened.signalAll();
		}
		finally {
			this.lock.unlock();
		}
	}

	/** From now on paused workers exit instead of waiting; none waits any more. */
	void stop() {
		this.lock.lock();
		try {
			this.stopping = true;
			this.opened.signalAll();
		}
		finally {
			this.lock.unlock();
		}
	}

	boolean isPaused() {
		return this.paused;
	}

	boolean isStopping() {
		return this.stopping;
	}

	/**
	 * Waits, uninterruptibly, while paused and not stopping.
	 * @return whether the gate is open (false: paused and stopping, the worker exits)
	 */
	boolean awaitOpen() {
		this.lock.lock();
		try {
			while (this.paused && !this.stopping) {
				this.opened.awaitUninterruptibly();
			}
			return !this.paused;
		}
		finally {
			this.lock.unlock();
		}
	}

}
