package io.github.workqueue.sample;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ThreadLocalRandom;

import org.springframework.stereotype.Component;

/**
 * A simulated downstream system, slow and unreliable as configured. Keys starting with
 * {@code poison-} always fail.
 */
@Component
public class FlakyDownstream {

	private final DownstreamProperties properties;

	private final Map<String, Integer> callsPerKey = new ConcurrentHashMap<>();

	public FlakyDownstream(DownstreamProperties properties) {
		this.properties = properties;
	}

	/**
	 * Applies a deployment downstream.
	 * @param deployment the desired state
	 * @throws DownstreamException if the downstream fails
	 */
	public void apply(Deployment deployment) throws InterruptedException {
		Thread.sleep(this.properties.latency().toMillis());
		String key = deployment.key();
		int call = this.callsPerKey.merge(key, 1, Integer::sum);
		if (key.startsWith("poison-")) {
			throw new DownstreamException("downstream rejects " + key);
		}
		if (key.startsWith("flaky-") && call <= this.properties.failFirstAttemptsForFlakyKeys()) {
			throw new DownstreamException("downstream unavailable for " + key + " (call " + call + ")");
		}
		if (ThreadLocalRandom.current().nextDouble() < this.properties.failureRate()) {
			throw new DownstreamException("downstream timed out for " + key);
		}
	}

	/**
	 * A failed downstream call.
	 */
	public static class DownstreamException extends RuntimeException {

		private static final long serialVersionUID = 1L;

		public DownstreamException(String message) {
			super(message);
		}

	}

}
