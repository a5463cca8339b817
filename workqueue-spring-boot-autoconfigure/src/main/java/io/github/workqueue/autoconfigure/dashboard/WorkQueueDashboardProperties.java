package io.github.workqueue.autoconfigure.dashboard;

import java.time.Duration;

import org.jspecify.annotations.Nullable;

import org.springframework.boot.context.properties.ConfigurationProperties;

/**
 * Configuration of the dashboard, under {@code workqueue.dashboard}.
 */
@ConfigurationProperties("workqueue.dashboard")
public class WorkQueueDashboardProperties {

	/**
	 * Whether to serve the dashboard. It shows and changes the queues through the
	 * workqueues Actuator endpoint, which must be exposed over HTTP.
	 */
	private boolean enabled;

	/**
	 * Path of the dashboard, from the root; when unset, workqueues-dashboard under the
	 * Actuator base path (/actuator/workqueues-dashboard).
	 */
	private @Nullable String path;

	/**
	 * How often the rates and latencies are sampled and the page refreshes.
	 */
	private Duration sampleInterval = Duration.ofSeconds(2);

	/**
	 * How far back the charts reach: the samples kept per queue.
	 */
	private Duration history = Duration.ofMinutes(10);

	/**
	 * How many dead letters a queue may keep before the page marks it as in trouble. By
	 * default only dead letters that keep arriving do.
	 */
	private @Nullable Integer deadLetterThreshold;

	/**
	 * How long ready items may wait to be taken before the page marks the queue as in
	 * trouble: the oldest ready item (in memory), or this instance's recent p99 queue
	 * wait, at or above it. Queue waits are measured up to 10 s (a p99 above that reads
	 * "> 10 s" and counts as above any threshold up to 10 s).
	 */
	private Duration waitThreshold = Duration.ofSeconds(10);

	public boolean isEnabled() {
		return this.enabled;
	}

	public void setEnabled(boolean enabled) {
		this.enabled = enabled;
	}

	public @Nullable String getPath() {
		return this.path;
	}

	public void setPath(@Nullable String path) {
		this.path = path;
	}

	public Duration getSampleInterval() {
		return this.sampleInterval;
	}

	public void setSampleInterval(Duration sampleInterval) {
		this.sampleInterval = sampleInterval;
	}

	public Duration getHistory() {
		return this.history;
	}

	public void setHistory(Duration history) {
		this.history = history;
	}

	public Duration getWaitThreshold() {
		return this.waitThreshold;
	}

	public void setWaitThreshold(Duration waitThreshold) {
		this.waitThreshold = waitThreshold;
	}

	public @Nullable Integer getDeadLetterThreshold() {
		return this.deadLetterThreshold;
	}

	public void setDeadLetterThreshold(@Nullable Integer deadLetterThreshold) {
		this.deadLetterThreshold = deadLetterThreshold;
	}

}
