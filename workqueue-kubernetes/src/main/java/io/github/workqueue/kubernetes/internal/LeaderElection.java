package io.github.workqueue.kubernetes.internal;

import java.net.InetAddress;
import java.net.UnknownHostException;
import java.time.Duration;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executors;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledExecutorService;
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
 * Runs for leadership on a {@code coordination.k8s.io} Lease, round after round, until
 * stopped: each round has a fresh fabric8 elector (one is good for one run), which
 * acquires the Lease and renews it; a round ends when the elector stops leading or fails,
 * and the next starts a retry period later.
 * <p>
 * This replica's leadership is judged here, on this JVM's monotonic clock from when each
 * Lease request was sent, not by the elector alone: it is elected when the elector
 * acquires the Lease with a write answered within the renew deadline of its read
 * ({@link RenewalTrackingLock} refuses and discounts later ones), and deposed when the
 * elector stops leading or when no renewal was accepted within the renew deadline of the
 * last one (a renewal held up by a partition may block the elector far longer). The Lease
 * calls run on a client whose requests end within half the renew deadline, with no
 * retries ({@link BoundedClients#forLease}). The listener hears each change with the time
 * of the last accepted renewal, from which the Lease may pass to another replica after
 * the lease duration; it is told this replica leads only while that renewal is younger
 * than the renew deadline. The elector never releases the Lease by itself: {@link #stop}
 * releases it, once the caller drained its work.
 *
 * <p>
 * <b>Concurrency.</b> Thread-safe. The rounds' state is guarded by this object's monitor.
 * The listener is called on this election's own thread, one call at a time, never under
 * the monitor or an elector's. Ending a round (cancelling its elector, which may wait for
 * a request in flight) runs on a thread of its own.
 */
final class LeaderElection {

	private static final Log logger = LogFactory.getLog(LeaderElection.class);

	/** What this replica's leadership does. */
	interface Listener {

		/** This replica leads, with a renewal accepted just now. */
		void elected();

		/**
		 * This replica leads no more.
		 * @param lastRenewalNanos when the last renewal accepted began
		 * ({@link System#nanoTime()})
		 */
		void deposed(long lastRenewalNanos);

	}

	/** The Lease calls' client, bounded by the renew deadline. */
	private final KubernetesClient client;

	private final String namespace;

	private final String name;

	private final String identity;

	private final Duration leaseDuration;

	private final Duration renewDeadline;

	private final Duration retryPeriod;

	private final Listener listener;

	/** Runs the rounds' starts, the watchdog and the listener's calls. */
	private final ScheduledExecutorService thread;

	/** Guarded by this. */
	private boolean running;

	/** The current round; guarded by this. */
	private @Nullable Round round;

	LeaderElection(KubernetesClient client, WorkQueueKubernetesProperties.LeaderElection properties,
			@Nullable String applicationName, Listener listener) {
		this.client = BoundedClients.forLease(client, properties.getRenewDeadline());
		this.identity = (properties.getIdentity() != null) ? properties.getIdentity() : defaultIdentity();
		this.name = (properties.getLeaseName() != null) ? properties.getLeaseName()
				: (applicationName != null) ? applicationName : "workqueue";
		this.namespace = (properties.getLeaseNamespace() != null) ? properties.getLeaseNamespace()
				: (client.getNamespace() != null) ? client.getNamespace() : "default";
		this.leaseDuration = properties.getLeaseDuration();
		this.renewDeadline = properties.getRenewDeadline();
		this.retryPeriod = properties.getRetryPeriod();
		this.listener = listener;
		this.thread = Executors.newSingleThreadScheduledExecutor((task) -> {
			Thread thread = new Thread(task, "workqueue-leader-election");
			thread.setDaemon(true);
			return thread;
		});
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

	/** The Lease, as {@code namespace/name}. */
	String lease() {
		return this.namespace + "/" + this.name;
	}

	String identity() {
		return this.identity;
	}

	/**
	 * Whether this replica leads: elected, not deposed, and its last accepted renewal
	 * began less than the renew deadline ago (the watchdog deposes it at that deadline;
	 * this reads the same rule without waiting for the watchdog's thread).
	 */
	synchronized boolean isLeading() {
		return this.round != null && this.round.leading && this.round.lock.renewedWithinDeadline(System.nanoTime());
	}

	/**
	 * When the current round's last accepted renewal began ({@link System#nanoTime()}),
	 * or {@link RenewalTrackingLock#NEVER}.
	 */
	synchronized long lastRenewalNanos() {
		return (this.round != null) ? this.round.lock.lastRenewalNanos() : RenewalTrackingLock.NEVER;
	}

	synchronized void start() {
		if (this.running) {
			return;
		}
		this.running = true;
		onThread(this::runRound, 0);
	}

	/**
	 * Stops running for leadership, and releases the Lease if asked and this replica
	 * holds it, so that a standby takes over at its next try (else it takes over once the
	 * Lease expires). The caller drained its work first. The listener hears nothing more.
	 * @param release whether to release the Lease
	 */
	void stop(boolean release) {
		Round last;
		boolean wasLeading;
		synchronized (this) {
			if (!this.running) {
				return;
			}
			this.running = false;
			last = this.round;
			wasLeading = last != null && last.leading;
			if (last != null) {
				last.leading = false;
			}
		}
		this.thread.shutdownNow();
		if (last != null) {
			CompletableFuture<?> future;
			synchronized (this) {
				future = last.future;
			}
			future.cancel(true);
			if (wasLeading && release) {
				try {
					last.lock.releasing();
					if (last.elector.release()) {
						logger.info("Released the Lease " + lease());
					}
				}
				catch (RuntimeException ex) {
					logger.warn(
							"Could not release the Lease " + lease() + "; another replica takes over once it expires",
							ex);
				}
			}
		}
	}

	private void runRound() {
		Round next;
		synchronized (this) {
			if (!this.running) {
				return;
			}
			next = new Round();
			this.round = next;
		}
		try {
			// Under the monitor: a callback of the elector's takes it, and then finds
			// the round's future set.
			synchronized (this) {
				next.future = next.elector.start();
			}
		}
		catch (RuntimeException ex) {
			logger.warn("Running for the Lease " + lease() + " failed; trying again in " + this.retryPeriod, ex);
			nextRoundLater();
			return;
		}
		CompletableFuture<?> started;
		synchronized (this) {
			started = next.future;
		}
		started.whenComplete((result, failure) -> {
			if (failure != null && !started.isCancelled()) {
				logger.warn("Leader election on the Lease " + lease() + " failed; running again", failure);
			}
			deposed(next, "the elector stopped leading");
			nextRoundLater();
		});
	}

	private void nextRoundLater() {
		onThread(this::runRound, this.retryPeriod.toNanos());
	}

	/**
	 * Runs a task on the election's thread after a delay.
	 * @return false if the election was stopped (the task never runs)
	 */
	private boolean onThread(Runnable task, long delayNanos) {
		try {
			this.thread.schedule(task, Math.max(0, delayNanos), TimeUnit.NANOSECONDS);
			return true;
		}
		catch (RejectedExecutionException ex) {
			return false;
		}
	}

	/**
	 * The elector acquired the Lease (on the elector's thread, under its monitor). Leads
	 * only if the acquisition is younger than the renew deadline, checked again when the
	 * listener is told.
	 */
	private void elected(Round elected) {
		if (!elected.lock.renewedWithinDeadline(System.nanoTime())) {
			deposed(elected, "the acquisition was not accepted within renew-deadline (" + this.renewDeadline
					+ ") of its request");
			return;
		}
		synchronized (this) {
			if (!this.running || this.round != elected || elected.over || elected.leading) {
				return;
			}
			elected.leading = true;
		}
		logger.info("Leading: acquired the Lease " + lease() + " as " + this.identity);
		boolean told = onThread(() -> {
			if (!stillLeading(elected)) {
				return;
			}
			if (elected.lock.renewedWithinDeadline(System.nanoTime())) {
				this.listener.elected();
			}
			else {
				deposed(elected, "the acquisition was older than renew-deadline (" + this.renewDeadline
						+ ") when the workers were to start");
			}
		}, 0);
		if (told) {
			watch(elected);
		}
	}

	/**
	 * Checks, at the renew deadline of the last accepted renewal, that one came since.
	 */
	private void watch(Round watched) {
		long last = watched.lock.lastRenewalNanos();
		if (last == RenewalTrackingLock.NEVER) {
			// Elected without an accepted write of this round's: nothing bounds it.
			deposed(watched, "no renewal of this round was accepted");
			return;
		}
		onThread(() -> {
			if (!stillLeading(watched)) {
				return;
			}
			if (watched.lock.lastRenewalNanos() != last) {
				watch(watched);
			}
			else {
				deposed(watched, "no renewal was accepted within renew-deadline (" + this.renewDeadline + ")");
			}
		}, last + this.renewDeadline.toNanos() - System.nanoTime());
	}

	private synchronized boolean stillLeading(Round round) {
		return this.running && this.round == round && round.leading;
	}

	/** Ends a round's leadership, if it led: the listener hears it, the elector ends. */
	private void deposed(Round round, String why) {
		boolean wasLeading;
		synchronized (this) {
			wasLeading = round.leading;
			round.leading = false;
			round.over = true;
			if (!this.running) {
				return;
			}
		}
		if (wasLeading) {
			long last = round.lock.lastRenewalNanos();
			logger.warn("Not leading any more: " + why + "; the Lease " + lease() + " was last renewed "
					+ Duration.ofNanos(System.nanoTime() - last).toMillis() + " ms ago");
			onThread(() -> this.listener.deposed(last), 0);
		}
		CompletableFuture<?> future;
		synchronized (this) {
			future = round.future;
		}
		if (!future.isDone()) {
			// Cancelling waits for a renewal in flight (it holds the elector's monitor):
			// never on the election's thread.
			Thread cancel = new Thread(() -> future.cancel(true), "workqueue-leader-election-end");
			cancel.setDaemon(true);
			cancel.start();
		}
	}

	/** One run of a fabric8 elector. */
	private final class Round {

		final RenewalTrackingLock lock;

		final LeaderElector elector;

		/** The elector's run, once started; guarded by the election's monitor. */
		CompletableFuture<?> future = new CompletableFuture<>();

		/** Guarded by the election's monitor. */
		boolean leading;

		/** Guarded by the election's monitor: the round was deposed or ended. */
		boolean over;

		Round() {
			this.lock = new RenewalTrackingLock(new LeaseLock(LeaderElection.this.namespace, LeaderElection.this.name,
					LeaderElection.this.identity), LeaderElection.this.renewDeadline, System::nanoTime);
			this.elector = LeaderElection.this.client.leaderElector()
				.withConfig(new LeaderElectionConfigBuilder().withName(LeaderElection.this.name)
					.withLock(this.lock)
					.withLeaseDuration(LeaderElection.this.leaseDuration)
					.withRenewDeadline(LeaderElection.this.renewDeadline)
					.withRetryPeriod(LeaderElection.this.retryPeriod)
					.withReleaseOnCancel(false)
					.withLeaderCallbacks(new LeaderCallbacks(() -> elected(this),
							() -> deposed(this, "the elector stopped leading"),
							(leader) -> logger
								.info("Lease " + lease() + " is held by " + ((leader != null) ? leader : "nobody"))))
					.build())
				.build();
		}

	}

}
