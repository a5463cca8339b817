package io.github.workqueue.redis.internal.batch;

import java.util.ArrayDeque;
import java.util.concurrent.Executor;

import org.jspecify.annotations.Nullable;

/**
 * Runs the tasks given one at a time, in the order given, on another executor's threads:
 * a shard's second tries ({@link SentPart#secondTry}), each of which waits for its reply,
 * so that two parts of one shard that both failed for want of the library reach Redis
 * again in the order they were first sent.
 *
 * <p>
 * <b>Concurrency.</b> Thread-safe. Guarded by this object's monitor: {@code tasks}, the
 * tasks not yet begun, and {@code running}, whether a thread of the other executor runs
 * them or was asked to. At most one such thread runs them at a time, and it takes them
 * from the head; the monitor is never held while a task runs. The other executor is the
 * connector's pool, which grows as needed and is never shut down, so it takes every task.
 */
final class InOrderExecutor implements Executor {

	private final Executor threads;

	private final ArrayDeque<Runnable> tasks = new ArrayDeque<>();

	private boolean running;

	InOrderExecutor(Executor threads) {
		this.threads = threads;
	}

	@Override
	public void execute(Runnable task) {
		synchronized (this) {
			this.tasks.add(task);
			if (this.running) {
				return;
			}
			this.running = true;
		}
		this.threads.execute(this::runAll);
	}

	/**
	 * Runs the tasks until none is left. A task that throws ends this run: the tasks
	 * after it go on on another thread.
	 */
	private void runAll() {
		boolean finished = false;
		try {
			Runnable next;
			while ((next = nextOrStop()) != null) {
				next.run();
			}
			finished = true;
		}
		finally {
			if (!finished) {
				this.threads.execute(this::runAll);
			}
		}
	}

	private synchronized @Nullable Runnable nextOrStop() {
		Runnable next = this.tasks.poll();
		if (next == null) {
			this.running = false;
		}
		return next;
	}

}
