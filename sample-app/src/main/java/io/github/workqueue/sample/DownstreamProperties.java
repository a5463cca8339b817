package io.github.workqueue.sample;

import java.time.Duration;

import org.springframework.boot.context.properties.ConfigurationProperties;

/**
 * How the simulated downstream misbehaves.
 *
 * @param failureRate chance that a call fails, from 0 to 1
 * @param latency how long a call takes
 * @param failFirstAttemptsForFlakyKeys how many calls fail for keys starting with
 * {@code flaky-} before one succeeds, to show retries deterministically
 */
@ConfigurationProperties("sample.downstream")
public record DownstreamProperties(double failureRate, Duration latency, int failFirstAttemptsForFlakyKeys) {

}
