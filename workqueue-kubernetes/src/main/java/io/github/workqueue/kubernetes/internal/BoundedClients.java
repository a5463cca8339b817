package io.github.workqueue.kubernetes.internal;

import java.time.Duration;

import io.fabric8.kubernetes.client.Config;
import io.fabric8.kubernetes.client.ConfigBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import io.fabric8.kubernetes.client.RequestConfig;
import io.fabric8.kubernetes.client.RequestConfigBuilder;

/**
 * Clients derived from the application's {@link KubernetesClient} whose requests are
 * bounded in time for one use, where fabric8's defaults (a 10 s request timeout, ten
 * retries over about a minute, list and watch backoff up to 32 s) would hide failures or
 * hold a decision too long.
 *
 * <p>
 * <b>Concurrency.</b> Stateless; the clients it returns are as thread-safe as fabric8's.
 */
final class BoundedClients {

	/**
	 * fabric8's list and watch backoff doubles from its initial interval up to 32 times
	 * it ({@code ExponentialBackoffIntervalCalculator}'s exponent 5).
	 */
	static final int BACKOFF_GROWTH = 32;

	private BoundedClients() {
	}

	/**
	 * The client of the Lease calls: the read and the write of an acquisition or renewal
	 * each end within half the renew deadline, with no retry of fabric8's (the elector
	 * tries again every retry period), so that an attempt never lands after its deadline
	 * has passed unnoticed.
	 * @param client the application's client
	 * @param renewDeadline the leader election's renew deadline
	 * @return the derived client
	 */
	static KubernetesClient forLease(KubernetesClient client, Duration renewDeadline) {
		int timeout = (int) Math.max(1, Math.min(Integer.MAX_VALUE, renewDeadline.toMillis() / 2));
		return derive(client,
				new RequestConfigBuilder(client.getConfiguration().getRequestConfig()).withRequestTimeout(timeout)
					.withRequestRetryBackoffLimit(0)
					.build());
	}

	/**
	 * The client of the informers, a new one made from the application's client's
	 * configuration (the master URL, credentials, TLS and proxy settings): a failed list
	 * or watch request reaches the informer at once (no retries of fabric8's HTTP client,
	 * which would absorb it uncounted), and the informer's backoff between lists, and the
	 * watch manager's between watches, grows to {@code maxRetryBackoff} at most.
	 * fabric8's informer reads its list backoff from the client's configuration, not from
	 * a request configuration, hence a client of its own. The caller closes it.
	 * @param client the application's client
	 * @param maxRetryBackoff the longest wait between two tries
	 * @return a new client
	 */
	static KubernetesClient forInformers(KubernetesClient client, Duration maxRetryBackoff) {
		int initial = (int) Math.max(1, Math.min(Integer.MAX_VALUE, maxRetryBackoff.toMillis() / BACKOFF_GROWTH));
		Config config = new ConfigBuilder(client.getConfiguration()).withWatchReconnectInterval(initial)
			.withRequestRetryBackoffLimit(0)
			.build();
		return new KubernetesClientBuilder().withConfig(config).build();
	}

	private static KubernetesClient derive(KubernetesClient client, RequestConfig config) {
		// Shares the application's HTTP client and lifecycle: never closed here.
		return client.newClient(config).adapt(KubernetesClient.class);
	}

}
