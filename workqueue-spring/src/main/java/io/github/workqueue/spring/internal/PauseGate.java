package io.github.workqueue.spring.internal;

import java.util.HashSet;
import java.util.Set;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.Consumer;

/**
 * Whether a container's workers may take items: open, paused (workers wait at the gate
 * until it opens) or stopping (a paused worker exits instead of waiting). Two things
 * pause it: a pause (an operator's, undone by a resume), and holds, each under a reason
 * of its own (whoever decides when the workers may run: a leader election, a cache that
 * must be complete), which only their own release undoes. The gate is open when it is
 * neither paused nor held.
 *
 * <p>
 * <b>Concurrency.</b> Thread-safe. The flags and the holds are written under the gate's
 * lock, which also carries the condition paused workers wait on; the flags are read
 * anywhere (volatile). Invariant: {@code held} is whether {@code holds} is not empty.
 * Each pause, resume, hold and release tells the gate's listener whether the gate is
 * closed now, under the lock, so that the listener's last word is the gate's state even
 * when two of them race (read after the lock, a resume's "open" could be overtaken by a
 * pause's "closed" that was read before the resume).
 */
final class PauseGate {

	private final ReentrantLock lock = new ReentrantLock();

	private final Condition opened = this.lock.newCondition();

	/** Written under {@code lock}. */
	private volatile boolean paused;

	/** The reasons the gate is held for; guarded by {@code lock}. */
	private final Set<String> holds = new HashSet<>();

	/** Written under {@code lock}. */
	private volatile boolean held;

	/** Written under {@code lock}. */
	private volatile boolean stopping;

	/** Told whether the gate is closed after each change, under {@code lock}. */
	private final Consumer<Boolean> closedChanged;

	/**
	 * @param closedChanged told, under the gate's lock, whether the gate is closed
	 * (paused or held) after each pause, resume, hold or release; it must not block
	 */
	PauseGate(Consumer<Boolean> closedChanged) {
		this.closedChanged = closedChanged;
	}

	void pause() {
		this.lock.lock();
		try {
			this.paused = true;
			this.closedChanged.accept(true);
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
			this.closedChanged.accept(isPaused());
		}
		finally {
			this.lock.unlock();
		}
	}

	void hold(String reason) {
		this.lock.lock();
		try {
			this.holds.add(reason);
			this.held = true;
			this.closedChanged.accept(true);
		}
		finally {
			this.lock.unlock();
		}
	}

	void release(String reason) {
		this.lock.lock();
		try {
			this.holds.remove(reason);
			this.held = !this.holds.isEmpty();
			this.opened.signalAll();
			this.closedChanged.accept(isPaused());
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

	/** Whether the workers may not take items: paused or held. */
	boolean isPaused() {
		return this.paused || this.held;
	}

	/** Whether the gate is held (for any reason), whatever a resume says. */
	boolean isHeld() {
		return this.held;
	}

	boolean isStopping() {
		return this.stopping;
	}

	/**
	 * Waits, uninterruptibly, while paused or held and not stopping.
	 * @return whether the gate is open (false: paused or held, and stopping: the worker
	 * exits)
	 */
	boolean awaitOpen() {
		this.lock.lock();
		try {
			while (isPaused() && !this.stopping) {
				this.opened.awaitUninterruptibly();
			}
			return !isPaused();
		}
		finally {
			this.lock.unlock();
		}
	}

}
