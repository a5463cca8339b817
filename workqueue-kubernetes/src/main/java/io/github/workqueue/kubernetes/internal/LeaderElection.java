package io.github.workqueue.kubernetes.internal;

import java.net.InetAddress;
import java.net.UnknownHostException;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.extended.leaderelection.LeaderCallbacks;
import io.fabric8.kubernetes.client.extended.leaderelection.LeaderElectionConfigBuilder;
import io.fabric8.kubernetes.client.extended.leaderelection.LeaderElector;
import io.fabric8.kubernetes.client.extended.leaderelection.resourcelock.LeaseLock;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.jspecify.annotations.Nullable;

import io.github.workqueue.kubernetes.WorkQueueKubernetesProperties;

/**
 * Takes part in the election of a leader among replicas on a {@code coordination.k8s.io}
 * Lease, with fabric8's elector: tells when this replica starts and stops leading, and
 * runs for leadership again after it lost it, until stopped. Stopping releases the Lease,
 * so that a standby takes over at its next try rather than after the lease duration.
 *
 * <p>
 * <b>Concurrency.</b> Thread-safe: start and stop are synchronized; the callbacks come on
 * the elector's thread.
 */
final class LeaderElection {

	private static final Log logger = LogFactory.getLog(LeaderElection.class);

	private final LeaderElector elector;

	private volatile boolean leading;

	private boolean running;

	private @Nullable CompletableFuture<?> round;

	private final long retryMillis;

	LeaderElection(KubernetesClient client, WorkQueueKubernetesProperties.LeaderElection properties,
			@Nullable String applicationName, Runnable onLead, Runnable onFollow) {
		this.retryMillis = properties.getRetryPeriod().toMillis();
		String identity = (properties.getIdentity() != null) ? properties.getIdentity() : defaultIdentity();
		String name = (properties.getLeaseName() != null) ? properties.getLeaseName()
				: (applicationName != null) ? applicationName : "workqueue";
		String namespace = (properties.getLeaseNamespace() != null) ? properties.getLeaseNamespace()
				: (client.getNamespace() != null) ? client.getNamespace() : "default";
		this.elector = client.leaderElector()
			.withConfig(new LeaderElectionConfigBuilder().withName(name)
				.withLock(new LeaseLock(namespace, name, identity))
				.withLeaseDuration(properties.getLeaseDuration())
				.withRenewDeadline(properties.getRenewDeadline())
				.withRetryPeriod(properties.getRetryPeriod())
				.withReleaseOnCancel(true)
				.withLeaderCallbacks(new LeaderCallbacks(() -> {
					this.leading = true;
					onLead.run();
				}, () -> {
					this.leading = false;
					onFollow.run();
				}, (leader) -> logger
					.info("Lease " + namespace + "/" + name + " is held by " + ((leader != null) ? leader : "nobody"))))
				.build())
			.build();
	}

	private static String defaultIdentity() {
		String host;
		try {
			host = InetAddress.getLocalHost().getHostName();
		}
		catch (UnknownHostException ex) {
			host = "unknown-host";
		}
		return host + "-" + UUID.randomUUID().toString().substring(0, 8);
	}

	boolean isLeading() {
		return this.leading;
	}

	synchronized void start() {
		this.running = true;
		runForLeadership();
	}

	private synchronized void runForLeadership() {
		if (!this.running) {
			return;
		}
		CompletableFuture<?> next = this.elector.start();
		this.round = next;
		// A round ends when this replica stops leading (or the elector fails): it runs
		// again after a retry period, unless stopped.
		next.whenComplete((result, failure) -> {
			if (failure != null && !next.isCancelled()) {
				logger.warn("Leader election failed; running for leadership again", failure);
			}
			CompletableFuture.runAsync(this::runForLeadership,
					CompletableFuture.delayedExecutor(this.retryMillis, TimeUnit.MILLISECONDS));
		});
	}

	synchronized void stop() {
		this.running = false;
		CompletableFuture<?> current = this.round;
		if (current != null) {
			current.cancel(true);
		}
	}

}
