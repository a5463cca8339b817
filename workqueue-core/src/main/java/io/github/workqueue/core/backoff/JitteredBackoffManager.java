package io.github.workqueue.core.backoff;

import java.time.Duration;
import java.util.Objects;
import java.util.concurrent.ThreadLocalRandom;

/**
 * A constant wait plus jitter, as apimachinery's {@code jitteredBackoffManagerImpl}.
 *
 * <p>
 * <b>Concurrency.</b> Thread-safe: it holds no mutable state.
 */
public final class JitteredBackoffManager implements BackoffManager {

	private final Duration duration;

	private final double jitter;

	/**
	 * Creates the manager.
	 * @param duration the wait
	 * @param jitter the random fraction added; zero or less for none
	 */
	public JitteredBackoffManager(Duration duration, double jitter) {
		this.duration = Objects.requireNonNull(duration, "duration");
		this.jitter = jitter;
	}

	@Override
	public Duration next() {
		if (this.jitter <= 0) {
			return this.duration;
		}
		return Backoff.jitter(this.duration, this.jitter, () -> ThreadLocalRandom.current().nextDouble());
	}

}
