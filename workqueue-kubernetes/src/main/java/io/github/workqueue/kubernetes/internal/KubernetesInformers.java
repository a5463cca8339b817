package io.github.workqueue.kubernetes.internal;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.client.KubernetesClient;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.jspecify.annotations.Nullable;

import org.springframework.context.SmartLifecycle;

import io.github.workqueue.core.RateLimitingQueue;
import io.github.workqueue.kubernetes.KubernetesController;
import io.github.workqueue.kubernetes.WorkQueueKubernetesProperties;
import io.github.workqueue.spring.QueueWorkerContainer;
import io.github.workqueue.spring.QueueWorkerRegistry;
import io.github.workqueue.spring.internal.DefaultQueueWorkerRegistry;

/**
 * The informers of every configured queue, and when their queues' workers may take keys:
 * a queue's container starts held and runs only while every informer that feeds it (the
 * watched resource's and the owned ones') has listed its objects once, and, with leader
 * election, while this replica leads. The informers run on every replica, so that a
 * standby's cache and queue are warm when it takes over.
 * <p>
 * <b>One leader at a time, for keys too.</b> A replica that is deposed (the elector
 * stopped leading, or no renewal was accepted within the renew deadline) pauses its
 * workers at once and waits for the keys in flight until the Lease may pass to another
 * replica: the last accepted renewal plus the lease duration, less the clocks' skew. Keys
 * still running then are handled as {@code on-overrun} says: the process halts, or they
 * are interrupted. At shutdown the workers are paused and drained first, the Lease is
 * released last; if they do not drain within the workers' shutdown timeout, the Lease is
 * not released but left to expire.
 *
 * <p>
 * <b>Concurrency.</b> Thread-safe. The gates' state is guarded by this object's monitor;
 * the election calls in on its own thread, a ticker thread checks the informers every
 * {@link #TICK_MILLIS} ms, and a deposed replica's drain waits on a thread of its own.
 */
public final class KubernetesInformers implements SmartLifecycle, AutoCloseable {

	private static final Log logger = LogFactory.getLog(KubernetesInformers.class);

	/**
	 * Why this holds an informer-fed queue's workers: the replica does not lead, or the
	 * queue's informers have not listed yet.
	 */
	static final String HOLD = "kubernetes: not leading, or the informers have not listed";

	/** How often the informers' sync and watches are checked. */
	static final long TICK_MILLIS = 100;

	private final Map<String, InformerFeed<? extends HasMetadata>> feeds = new LinkedHashMap<>();

	private final QueueWorkerRegistry workers;

	private final @Nullable LeaderElection election;

	private final WorkQueueKubernetesProperties properties;

	private final Duration drainTimeout;

	private final WorkDrain drain;

	/** The informers' own client ({@link BoundedClients#forInformers}), closed last. */
	private final KubernetesClient informerClient;

	/** Guarded by this. */
	private boolean running;

	/** This replica leads (by the election's word); guarded by this. */
	private boolean leading;

	/**
	 * Counts leadership changes, so that a drain knows it was overtaken; guarded by this.
	 */
	private long leadership;

	/**
	 * Queues whose informers did not list within the timeout, logged once; guarded by
	 * this.
	 */
	private final Set<String> syncLate = new HashSet<>();

	private long startedNanos;

	private @Nullable ScheduledExecutorService ticker;

	/**
	 * Makes the informers, not started, and has the informer-fed queues' workers start
	 * held.
	 * @param client the client
	 * @param properties the configuration
	 * @param queues the queue of each name
	 * @param workers the worker containers
	 * @param applicationName the default Lease name
	 * @param drainTimeout how long shutdown waits for the keys in flight
	 * @param controllers what Java adds to the informers, by queue
	 */
	public KubernetesInformers(KubernetesClient client, WorkQueueKubernetesProperties properties,
			Function<String, RateLimitingQueue<Object>> queues, QueueWorkerRegistry workers,
			@Nullable String applicationName, Duration drainTimeout, List<KubernetesController<?>> controllers) {
		this.workers = workers;
		this.properties = properties;
		this.drainTimeout = drainTimeout;
		this.drain = new WorkDrain(this::containers, properties.getLeaderElection().getOnOverrun(),
				() -> Runtime.getRuntime().halt(1));
		WorkQueueKubernetesProperties.LeaderElection election = properties.getLeaderElection();
		KubernetesSettingsCheck.check(properties);
		this.informerClient = BoundedClients.forInformers(client, properties.getMaxRetryBackoff());
		try {
			this.feeds.putAll(InformerFeeds.build(this.informerClient, properties, queues, controllers));
		}
		catch (RuntimeException ex) {
			this.informerClient.close();
			throw ex;
		}
		this.feeds.keySet().forEach((queueName) -> workers.startHeld(queueName, HOLD));
		this.election = election.isEnabled() ? new LeaderElection(client, election, applicationName, new Listener())
				: null;
	}

	/** The informer source of a queue, which is also its lister. */
	public InformerFeed<? extends HasMetadata> feed(String queueName) {
		return Objects.requireNonNull(this.feeds.get(queueName), () -> "No informer feeds queue '" + queueName + "'");
	}

	/** The informer source of a queue, or {@code null} if no informer feeds it. */
	public @Nullable InformerFeed<? extends HasMetadata> feedOrNull(String queueName) {
		return this.feeds.get(queueName);
	}

	public Collection<InformerFeed<? extends HasMetadata>> feeds() {
		return this.feeds.values();
	}

	/**
	 * Whether this replica leads (elected, and its last renewal younger than the renew
	 * deadline); true without leader election.
	 */
	public synchronized boolean isLeading() {
		return this.election == null || (this.leading && this.election.isLeading());
	}

	/**
	 * When this replica's last accepted Lease acquisition or renewal began
	 * ({@link System#nanoTime()}), or {@link Long#MIN_VALUE} if none (or no leader
	 * election).
	 */
	public long lastLeaseRenewalNanos() {
		return (this.election != null) ? this.election.lastRenewalNanos() : Long.MIN_VALUE;
	}

	/**
	 * What keeps each informer source from being healthy now: not listed within
	 * {@code cache-sync-timeout} (or not yet), or failing to list or watch for longer
	 * than {@code watch-outage-threshold}; none for a healthy one.
	 * @return the problem of each queue's informers that has one
	 */
	public Map<String, String> problems() {
		long now = System.nanoTime();
		long startedAt;
		synchronized (this) {
			startedAt = this.startedNanos;
		}
		Map<String, String> problems = new LinkedHashMap<>();
		for (InformerFeed<? extends HasMetadata> feed : this.feeds.values()) {
			long outage = feed.outageNanos(now);
			String cause = (feed.lastFailure() != null) ? ": " + feed.lastFailure() : "";
			if (!feed.hasSynced()) {
				boolean late = now - startedAt > this.properties.getCacheSyncTimeout().toNanos();
				problems.put(feed.queueName(),
						(late ? "not listed within cache-sync-timeout (" + this.properties.getCacheSyncTimeout() + ")"
								: "listing") + cause);
			}
			else if (outage > this.properties.getWatchOutageThreshold().toNanos()) {
				problems.put(feed.queueName(), "not watching for " + outage / 1_000_000_000 + " s" + cause);
			}
		}
		return problems;
	}

	@Override
	public void start() {
		synchronized (this) {
			if (this.running) {
				return;
			}
			this.running = true;
			this.startedNanos = System.nanoTime();
		}
		this.feeds.values().forEach(InformerFeed::start);
		if (this.election != null) {
			this.election.start();
		}
		ScheduledExecutorService ticks = Executors.newSingleThreadScheduledExecutor((task) -> {
			Thread thread = new Thread(task, "workqueue-kubernetes-informers");
			thread.setDaemon(true);
			return thread;
		});
		synchronized (this) {
			this.ticker = ticks;
		}
		ticks.scheduleWithFixedDelay(this::tick, 0, TICK_MILLIS, TimeUnit.MILLISECONDS);
		if (this.properties.isFailOnStart()) {
			awaitSynced();
		}
	}

	/** Fails startup if an informer has not listed within the timeout. */
	private void awaitSynced() {
		long deadline = System.nanoTime() + this.properties.getCacheSyncTimeout().toNanos();
		while (!this.feeds.values().stream().allMatch(InformerFeed::hasSynced)) {
			if (System.nanoTime() - deadline > 0) {
				Map<String, String> problems = problems();
				stop();
				throw new IllegalStateException("Kubernetes informers did not list their objects within "
						+ "workqueue.kubernetes.cache-sync-timeout (" + this.properties.getCacheSyncTimeout()
						+ ") and workqueue.kubernetes.fail-on-start is true: " + problems);
			}
			try {
				Thread.sleep(TICK_MILLIS);
			}
			catch (InterruptedException ex) {
				Thread.currentThread().interrupt();
				throw new IllegalStateException("Interrupted while waiting for the Kubernetes informers to list", ex);
			}
		}
	}

	private void tick() {
		try {
			long now = System.nanoTime();
			this.feeds.values().forEach((feed) -> feed.checkWatching(now));
			updateGates();
			logLateSyncs();
		}
		catch (RuntimeException ex) {
			logger.error("Checking the Kubernetes informers failed", ex);
		}
	}

	private void logLateSyncs() {
		long late = System.nanoTime() - this.startedNanos - this.properties.getCacheSyncTimeout().toNanos();
		if (late < 0) {
			return;
		}
		for (InformerFeed<? extends HasMetadata> feed : this.feeds.values()) {
			boolean first;
			synchronized (this) {
				first = !feed.hasSynced() && this.syncLate.add(feed.queueName());
			}
			if (first) {
				logger.error("Informers of queue '" + feed.queueName() + "' (" + feed.resource()
						+ ") have not listed their objects within workqueue.kubernetes.cache-sync-timeout ("
						+ this.properties.getCacheSyncTimeout() + "); its workers wait for them"
						+ ((feed.lastFailure() != null) ? "; last failure: " + feed.lastFailure() : ""));
			}
		}
	}

	/**
	 * Releases the workers of each queue whose informers have listed while this replica
	 * may work, and holds every other queue's: a hold that an operator's resume does not
	 * undo. Run at each leadership change and every tick: a replica whose last renewal
	 * grew older than the renew deadline is held here even before the election's watchdog
	 * deposes it.
	 */
	private synchronized void updateGates() {
		boolean mayWork = this.running && isLeading();
		for (InformerFeed<? extends HasMetadata> feed : this.feeds.values()) {
			QueueWorkerContainer container = this.workers.getContainer(feed.queueName());
			if (container == null) {
				continue;
			}
			if (mayWork && feed.hasSynced()) {
				container.release(HOLD);
			}
			else if (!container.isHeld()) {
				container.hold(HOLD);
			}
		}
	}

	@Override
	public void stop() {
		ScheduledExecutorService ticks;
		synchronized (this) {
			if (!this.running) {
				return;
			}
			this.running = false;
			this.leadership++;
			ticks = this.ticker;
			this.ticker = null;
		}
		if (ticks != null) {
			ticks.shutdownNow();
		}
		updateGates();
		boolean drained = this.drain.awaitIdle(System.nanoTime() + this.drainTimeout.toNanos());
		if (this.election != null) {
			if (!drained) {
				logger.warn("Keys still run after workqueue.shutdown.timeout (" + this.drainTimeout
						+ "): the Lease is not released but left to expire, so that no other replica runs them "
						+ "meanwhile");
			}
			this.election.stop(drained);
		}
		this.feeds.values().forEach(InformerFeed::stop);
	}

	/** Closes the informers' own client, once stopped. */
	@Override
	public void close() {
		this.informerClient.close();
	}

	@Override
	public synchronized boolean isRunning() {
		return this.running;
	}

	/** After the worker containers start, and before they stop. */
	@Override
	public int getPhase() {
		return DefaultQueueWorkerRegistry.PHASE + 1;
	}

	private List<QueueWorkerContainer> containers() {
		List<QueueWorkerContainer> containers = new ArrayList<>();
		for (String queueName : this.feeds.keySet()) {
			QueueWorkerContainer container = this.workers.getContainer(queueName);
			if (container != null) {
				containers.add(container);
			}
		}
		return containers;
	}

	/** The election's news, on its thread. */
	private final class Listener implements LeaderElection.Listener {

		@Override
		public void elected() {
			synchronized (KubernetesInformers.this) {
				KubernetesInformers.this.leading = true;
				KubernetesInformers.this.leadership++;
			}
			logger.info("Leading: the workers of " + KubernetesInformers.this.feeds.keySet()
					+ " run once their informers listed");
			updateGates();
		}

		@Override
		public void deposed(long lastRenewalNanos) {
			long turn;
			synchronized (KubernetesInformers.this) {
				KubernetesInformers.this.leading = false;
				turn = ++KubernetesInformers.this.leadership;
			}
			updateGates();
			logger.info("Not leading: the workers of " + KubernetesInformers.this.feeds.keySet()
					+ " are paused; keys in flight finish before the Lease may pass");
			WorkQueueKubernetesProperties.LeaderElection settings = KubernetesInformers.this.properties
				.getLeaderElection();
			long deadline = lastRenewalNanos + settings.getLeaseDuration().toNanos()
					- settings.getMaxClockSkew().toNanos();
			Thread drain = new Thread(() -> KubernetesInformers.this.drain.beforeTheLeasePasses(deadline, () -> {
				synchronized (KubernetesInformers.this) {
					return KubernetesInformers.this.leadership != turn;
				}
			}), "workqueue-kubernetes-drain");
			drain.setDaemon(true);
			drain.start();
		}

	}

}
