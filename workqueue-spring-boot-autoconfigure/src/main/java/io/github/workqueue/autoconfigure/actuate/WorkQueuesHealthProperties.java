package io.github.workqueue.autoconfigure.actuate;

import java.time.Duration;

import org.jspecify.annotations.Nullable;

import org.springframework.boot.context.properties.ConfigurationProperties;

/**
 * Configuration of the {@code workqueues} health contributor.
 */
@ConfigurationProperties("workqueue.health")
public class WorkQueuesHealthProperties {

	/**
	 * Processing time after which an item counts as stuck and health turns DOWN. Off by
	 * default: how long work may take is the application's to say, and a DOWN health
	 * usually restarts the instance.
	 */
	private @Nullable Duration stuckThreshold;

	public @Nullable Duration getStuckThreshold() {
		return this.stuckThreshold;
	}

	public void setStuckThreshold(@Nullable Duration stuckThreshold) {
		this.stuckThreshold = stuckThreshold;
	}

}
