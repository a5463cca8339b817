package io.github.workqueue.core.internal;

import java.util.function.Consumer;

import org.jspecify.annotations.Nullable;

import io.github.workqueue.core.Clock;

/**
 * One clock timer armed by a {@link DefaultDelayingQueue} for its earliest waiting item.
 * The queue decides under its lock which timer is armed and {@linkplain #start() starts}
 * it after releasing the lock, so that a clock may run a timer that is already due on the
 * starting thread; a timer superseded before or while it starts is {@linkplain #cancel()
 * cancelled} and never left pending.
 *
 * <p>
 * <b>Concurrency.</b> {@link #start()} and {@link #cancel()} may race: each writes its
 * own volatile field and then reads the other's, so at least one of them sees the other
 * and the clock's timer is cancelled.
 */
final class DelayTimer implements Runnable {

	private final Clock clock;

	final long deadline;

	private final Consumer<DelayTimer> onFire;

	private volatile Clock.@Nullable Timer handle;

	private volatile boolean cancelled;

	DelayTimer(Clock clock, long deadline, Consumer<DelayTimer> onFire) {
		this.clock = clock;
		this.deadline = deadline;
		this.onFire = onFire;
	}

	/** Schedules the timer on the clock; called without the queue's lock. */
	void start() {
		Clock.Timer timer = this.clock.schedule(this.deadline, this);
		this.handle = timer;
		if (this.cancelled) {
			timer.cancel();
		}
	}

	/** Stops the timer, whether it started yet or not. */
	void cancel() {
		this.cancelled = true;
		Clock.Timer timer = this.handle;
		if (timer != null) {
			timer.cancel();
		}
	}

	@Override
	public void run() {
		this.onFire.accept(this);
	}

}
