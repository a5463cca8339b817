package io.github.workqueue.autoconfigure.dashboard;

import java.time.Duration;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.jspecify.annotations.Nullable;

import org.springframework.context.SmartLifecycle;

import io.github.workqueue.autoconfigure.actuate.RecentRates;

/**
 * Samples {@link RecentRates} on one daemon thread while the application runs.
 *
 * <p>
 * <b>Concurrency.</b> {@link #start()} and {@link #stop()} are called by the context's
 * lifecycle, one at a time; the sampling itself runs on the scheduler's thread.
 */
final class RecentRatesSampler implements SmartLifecycle {

	private static final Log logger = LogFactory.getLog(RecentRatesSampler.class);

	private final RecentRates rates;

	private final Duration interval;

	private @Nullable ScheduledExecutorService scheduler;

	RecentRatesSampler(RecentRates rates, Duration interval) {
		this.rates = rates;
		this.interval = interval;
	}

	@Override
	public void start() {
		ScheduledExecutorService scheduler = Executors.newSingleThreadScheduledExecutor((task) -> {
			Thread thread = new Thread(task, "workqueue-dashboard-sampler");
			thread.setDaemon(true);
			return thread;
		});
		long millis = this.interval.toMillis();
		scheduler.scheduleAtFixedRate(this::sample, 0, millis, TimeUnit.MILLISECONDS);
		this.scheduler = scheduler;
	}

	private void sample() {
		try {
			this.rates.sample(System.currentTimeMillis());
		}
		catch (RuntimeException ex) {
			// A failed sample leaves a gap in the charts; the next one carries on.
			logger.warn("Could not sample the work queues' rates for the dashboard", ex);
		}
	}

	@Override
	public void stop() {
		ScheduledExecutorService scheduler = this.scheduler;
		if (scheduler != null) {
			scheduler.shutdownNow();
			this.scheduler = null;
		}
	}

	@Override
	public boolean isRunning() {
		return this.scheduler != null;
	}

}
