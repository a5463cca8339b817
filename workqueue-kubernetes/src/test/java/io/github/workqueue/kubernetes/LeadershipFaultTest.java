package io.github.workqueue.kubernetes;

import java.io.IOException;
import java.net.InetAddress;
import java.net.URI;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;

import io.fabric8.kubernetes.api.model.ConfigMapBuilder;
import io.fabric8.kubernetes.client.Config;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import org.junit.jupiter.api.extension.ExtendWith;
import io.fabric8.kubernetes.client.server.mock.KubernetesMockServer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.health.contributor.HealthIndicator;
import org.springframework.boot.health.contributor.Status;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.ApplicationContext;

import io.github.workqueue.autoconfigure.WorkQueueAutoConfiguration;
import io.github.workqueue.autoconfigure.WorkQueueRegistry;
import io.github.workqueue.kubernetes.FaultProxy.Mode;
import io.github.workqueue.kubernetes.autoconfigure.WorkQueueKubernetesAutoConfiguration;
import io.github.workqueue.kubernetes.internal.KubernetesInformers;
import io.github.workqueue.spring.QueueWorkerRegistry;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Replicas of a controller with leader election, each reaching fabric8's mock API server
 * (CRUD mode) through a {@link FaultProxy} of its own, while ConfigMaps change every 100
 * ms; every reconcile (200-800 ms) goes to the {@link Ledger}, which must never hold two
 * reconciles of one key on two replicas at the same time. Lease 3 s, renew deadline 2 s,
 * retry 250 ms, clock skew 250 ms: a deposed leader has 0.75 s to end its keys, after
 * which they are interrupted ({@code on-overrun: interrupt}, as the JVM of a test must
 * not halt).
 */
@ExtendWith(MockApiServer.class)
class LeadershipFaultTest {

	/**
	 * How long a replica's first election may take: its context starts, then its first
	 * requests go through its proxy. Not what the tests check (the bounds after a fault
	 * are); long enough for a machine busy with other builds, where 15 s was once too
	 * short.
	 */
	private static final Duration FIRST_ELECTION = Duration.ofSeconds(45);

	static KubernetesMockServer server;

	static KubernetesClient client;

	private final List<AutoCloseable> closeables = new ArrayList<>();

	private final String lease = "ledger-" + UUID.randomUUID().toString().substring(0, 8);

	/** The ConfigMaps' changes of the running test, if it started them. */
	private ConfigMapChanges changes;

	@BeforeEach
	void clearLedger() {
		Ledger.clear();
	}

	@AfterEach
	void close() throws Exception {
		if (this.changes != null) {
			this.changes.close();
		}
		for (AutoCloseable closeable : this.closeables) {
			closeable.close();
		}
	}

	@Test
	void aLeaderCutOffShouldStopBeforeAnotherTakesOverAndLeadAgainLater() throws IOException {
		FaultProxy toA = proxy();
		FaultProxy toB = proxy();
		this.changes = ConfigMapChanges.start(client, "ops", 3, 100);
		replica("a", toA).run((a) -> {
			await().atMost(FIRST_ELECTION).until(() -> leading(a));
			replica("b", toB).run((b) -> {
				await().atMost(Duration.ofSeconds(15)).until(() -> Ledger.count("a") > 0);
				// Three partitions of whoever leads: a loses, regains, loses again.
				for (int round = 1; round <= 3; round++) {
					boolean aLeads = leading(a);
					FaultProxy cut = aLeads ? toA : toB;
					ApplicationContext other = aLeads ? b : a;
					String otherName = aLeads ? "b" : "a";
					long since = System.nanoTime();
					cut.mode(Mode.HOLD);
					await().atMost(Duration.ofSeconds(20))
						.alias("round " + round + ": " + otherName + " leads and reconciles")
						.until(() -> leading(other) && Ledger.countSince(otherName, since) > 0);
					cut.mode(Mode.PASS);
					await().atMost(Duration.ofSeconds(10))
						.alias("round " + round + ": the cut-off replica knows it does not lead")
						.until(() -> !leading(aLeads ? a : b));
				}
				assertThat(leading(b)).isTrue();
				await().atMost(Duration.ofSeconds(10)).until(() -> Ledger.running("b") > 0);
				// b shuts down with a key in flight: it drains, then releases the Lease.
			});
			long since = System.nanoTime();
			await().atMost(Duration.ofSeconds(15))
				.alias("a leads again once b shut down")
				.until(() -> leading(a) && Ledger.countSince("a", since) > 0);
		});
		this.changes.close();
		assertThat(Ledger.overlaps()).as("reconciles of one key on two replicas at once").isEmpty();
	}

	@Test
	void aLeaderShutDownAndRestartedShouldLeadAgainWithoutOverlap() throws IOException {
		FaultProxy toA = proxy();
		FaultProxy toB = proxy();
		this.changes = ConfigMapChanges.start(client, "ops", 3, 100);
		replica("a", toA).run((a) -> {
			await().atMost(FIRST_ELECTION).until(() -> leading(a));
			// b takes over from a cut-off a, then shuts down with a key in flight.
			replica("b", toB).run((b) -> {
				toA.mode(Mode.HOLD);
				await().atMost(Duration.ofSeconds(20)).until(() -> leading(b) && Ledger.running("b") > 0);
				toA.mode(Mode.PASS);
			});
			await().atMost(Duration.ofSeconds(15)).until(() -> leading(a));
			// b, restarted, stands by, and takes over when a is cut off again.
			replica("b", toB).run((b) -> {
				long since = System.nanoTime();
				assertThat(leading(b)).isFalse();
				toA.mode(Mode.HOLD);
				await().atMost(Duration.ofSeconds(20)).until(() -> leading(b) && Ledger.countSince("b", since) > 0);
				toA.mode(Mode.PASS);
			});
		});
		this.changes.close();
		assertThat(Ledger.overlaps()).as("reconciles of one key on two replicas at once").isEmpty();
	}

	@Test
	void threeReplicasWithReconcilesLongerThanTheDrainWindowShouldNeverOverlap() throws IOException {
		FaultProxy toA = proxy();
		FaultProxy toB = proxy();
		FaultProxy toC = proxy();
		this.changes = ConfigMapChanges.start(client, "ops", 3, 100);
		String[] longReconciles = { "test.reconcile.min-millis=1000", "test.reconcile.max-millis=3000" };
		replica("a", toA).withPropertyValues(longReconciles).run((a) -> {
			await().atMost(FIRST_ELECTION).until(() -> leading(a));
			replica("b", toB).withPropertyValues(longReconciles)
				.run((b) -> replica("c", toC).withPropertyValues(longReconciles).run((c) -> {
					List<ApplicationContext> replicas = List.of(a, b, c);
					List<FaultProxy> proxies = List.of(toA, toB, toC);
					// Twice: the leader is cut off with keys of 1-3 s in flight; they get
					// interrupted.
					for (int round = 1; round <= 2; round++) {
						await().atMost(Duration.ofSeconds(15))
							.until(() -> replicas.stream().anyMatch((r) -> leading(r)));
						int leader = replicas.indexOf(replicas.stream().filter((r) -> leading(r)).findFirst().get());
						long since = System.nanoTime();
						proxies.get(leader).mode(Mode.HOLD);
						await().atMost(Duration.ofSeconds(20))
							.alias("round " + round + ": another replica reconciles")
							.until(() -> Ledger.entries()
								.stream()
								.anyMatch((entry) -> entry.start() > since
										&& !entry.replica().equals(List.of("a", "b", "c").get(leader))));
						proxies.get(leader).mode(Mode.PASS);
					}
				}));
		});
		this.changes.close();
		assertThat(Ledger.overlaps()).as("reconciles of one key on two replicas at once").isEmpty();
	}

	/**
	 * Every replica cut off from the API server for longer than the lease, three times: a
	 * Lease read held that long comes back with a record that is already expired for the
	 * others, and fabric8's elector would write it and lead on it. No replica may start a
	 * key on a renewal older than the lease less the clocks' skew, and no key may run on
	 * two replicas at once.
	 */
	@Test
	void replicasCutOffLongerThanTheLeaseShouldNeverRunKeysOnAnExpiredLease() throws IOException {
		FaultProxy toA = proxy();
		FaultProxy toB = proxy();
		FaultProxy toC = proxy();
		List<FaultProxy> proxies = List.of(toA, toB, toC);
		this.changes = ConfigMapChanges.start(client, "ops", 3, 100);
		replica("a", toA).run((a) -> {
			await().atMost(FIRST_ELECTION).until(() -> leading(a));
			replica("b", toB).run((b) -> replica("c", toC).run((c) -> {
				List<ApplicationContext> replicas = List.of(a, b, c);
				for (int round = 1; round <= 3; round++) {
					await().atMost(Duration.ofSeconds(20))
						.alias("round " + round + ": a replica leads")
						.until(() -> replicas.stream().anyMatch((r) -> leading(r)));
					proxies.forEach((proxy) -> proxy.mode(Mode.HOLD));
					await().pollDelay(Duration.ofMillis(4500)).atMost(Duration.ofSeconds(5)).until(() -> true);
					long since = System.nanoTime();
					proxies.forEach((proxy) -> proxy.mode(Mode.PASS));
					await().atMost(Duration.ofSeconds(20))
						.alias("round " + round + ": a replica reconciles after the cut")
						.until(() -> Ledger.entries().stream().anyMatch((entry) -> entry.start() > since));
				}
			}));
		});
		this.changes.close();
		System.out.println("Cut off longer than the lease: " + Ledger.entries().size() + " reconciles, "
				+ Ledger.overlaps().size() + " overlapping, the oldest renewal at a start "
				+ Duration.ofNanos(Ledger.oldestRenewalAtStart()).toMillis() + " ms");
		assertThat(Ledger.overlaps()).as("reconciles of one key on two replicas at once").isEmpty();
		assertThat(Duration.ofNanos(Ledger.oldestRenewalAtStart()))
			.as("the oldest last renewal of a replica when it started a key")
			.isLessThan(Duration.ofMillis(3000 - 250));
	}

	@Test
	void replicasStartingWhileTheApiServerIsUnreachableShouldNeverOverlap() throws IOException {
		FaultProxy toA = proxy();
		FaultProxy toB = proxy();
		toA.mode(Mode.REFUSE);
		toB.mode(Mode.REFUSE);
		this.changes = ConfigMapChanges.start(client, "ops", 3, 100);
		replica("a", toA).run((a) -> replica("b", toB).run((b) -> {
			KubernetesInformers informers = a.getBean(KubernetesInformers.class);
			await().atMost(Duration.ofSeconds(15))
				.alias("failed lists, counted by reason")
				.until(() -> informers.feed("configmaps").failures("unreachable") > 0);
			assertThat(Ledger.entries()).as("no replica reconciles before it leads and its cache listed").isEmpty();
			assertThat(health(a).getStatus()).isEqualTo(Status.DOWN);
			toA.mode(Mode.PASS);
			toB.mode(Mode.PASS);
			try {
				await().atMost(Duration.ofSeconds(30)).until(() -> leading(a) || leading(b));
			}
			catch (org.awaitility.core.ConditionTimeoutException ex) {
				// Failed twice in CI, without a trace of the threads: the mock server's
				// event loop deadlocking for 30 s when a watch closes with an event in
				// flight (reproduced since, and broken by MockApiServer's
				// WatchCloseUnblocker) would explain both. Show where each replica's
				// election and the event loops stand.
				printElectionThreads();
				throw ex;
			}
			await().atMost(Duration.ofSeconds(20)).until(() -> Ledger.entries().size() > 10);
			await().atMost(Duration.ofSeconds(10)).until(() -> health(a).getStatus().equals(Status.UP));
		}));
		this.changes.close();
		assertThat(Ledger.overlaps()).as("reconciles of one key on two replicas at once").isEmpty();
	}

	@Test
	void workersShouldTakeNoKeyUntilTheInformersListed() throws IOException {
		FaultProxy proxy = proxy();
		proxy.mode(Mode.REFUSE);
		new ApplicationContextRunner()
			.withConfiguration(
					AutoConfigurations.of(WorkQueueAutoConfiguration.class, WorkQueueKubernetesAutoConfiguration.class))
			.withBean(KubernetesClient.class, () -> clientThrough(proxy))
			.withUserConfiguration(LedgerWorker.class)
			.withPropertyValues("workqueue.kubernetes.informers.configmaps.api-version=v1",
					"workqueue.kubernetes.informers.configmaps.kind=ConfigMap",
					"workqueue.kubernetes.informers.configmaps.namespaces=gate", "test.reconcile.min-millis=1",
					"test.reconcile.max-millis=2")
			.run((context) -> {
				KubernetesInformers informers = context.getBean(KubernetesInformers.class);
				// As an owned object's event would, before the watched resource listed.
				context.getBean(WorkQueueRegistry.class)
					.getOrCreateQueue("configmaps")
					.add(new ObjectKey("gate", "owner"));
				// An operator's resume does not start the workers before the cache
				// listed.
				context.getBean(QueueWorkerRegistry.class).getContainer("configmaps").resume();
				await().pollDelay(Duration.ofSeconds(1)).atMost(Duration.ofSeconds(5)).until(() -> true);
				assertThat(informers.feed("configmaps").hasSynced()).isFalse();
				assertThat(Ledger.entries()).as("keys taken before the cache listed").isEmpty();
				// Directly to the mock server, whose event loop a machine busy with other
				// work can hold past the client's 10 s: tried again until it is there.
				await().ignoreExceptions()
					.atMost(Duration.ofSeconds(60))
					.until(() -> client.configMaps()
						.inNamespace("gate")
						.resource(new ConfigMapBuilder().withNewMetadata().withName("owner").endMetadata().build())
						.createOr((existing) -> existing.update()) != null);
				proxy.mode(Mode.PASS);
				await().atMost(Duration.ofSeconds(15)).until(() -> Ledger.count("solo") > 0);
				assertThat(informers.feed("configmaps").hasSynced()).isTrue();
			});
	}

	private ApplicationContextRunner replica(String identity, FaultProxy proxy) {
		return new ApplicationContextRunner()
			.withConfiguration(
					AutoConfigurations.of(WorkQueueAutoConfiguration.class, WorkQueueKubernetesAutoConfiguration.class))
			.withBean(KubernetesClient.class, () -> clientThrough(proxy))
			.withUserConfiguration(LedgerWorker.class)
			.withPropertyValues("workqueue.queues.configmaps.workers=2", "workqueue.shutdown.timeout=10s",
					"workqueue.kubernetes.informers.configmaps.api-version=v1",
					"workqueue.kubernetes.informers.configmaps.kind=ConfigMap",
					"workqueue.kubernetes.informers.configmaps.namespaces=ops",
					"workqueue.kubernetes.leader-election.enabled=true",
					"workqueue.kubernetes.leader-election.lease-name=" + this.lease,
					"workqueue.kubernetes.leader-election.lease-namespace=ops",
					"workqueue.kubernetes.leader-election.identity=" + identity,
					"workqueue.kubernetes.leader-election.lease-duration=3s",
					"workqueue.kubernetes.leader-election.renew-deadline=2s",
					"workqueue.kubernetes.leader-election.retry-period=250ms",
					"workqueue.kubernetes.leader-election.max-clock-skew=250ms",
					"workqueue.kubernetes.leader-election.on-overrun=interrupt", "test.reconcile.min-millis=200",
					"test.reconcile.max-millis=800");
	}

	private FaultProxy proxy() throws IOException {
		URI master = URI.create(client.getConfiguration().getMasterUrl());
		FaultProxy proxy = new FaultProxy(InetAddress.getByName(master.getHost()), master.getPort());
		this.closeables.add(proxy);
		return proxy;
	}

	/**
	 * A client of the mock server through the proxy: fabric8's request timeout (10 s, so
	 * that a held renewal blocks its elector that long), fewer retries of a failed
	 * request.
	 */
	private static KubernetesClient clientThrough(FaultProxy proxy) {
		Config config = proxy.configThrough(client.getConfiguration())
			.withWatchReconnectInterval(200)
			// fabric8 retries a failed request 10 times by default (over about a minute)
			// before the informer hears of it.
			.withRequestRetryBackoffLimit(1)
			.build();
		return new KubernetesClientBuilder().withConfig(config).build();
	}

	/** The stacks of the threads that run for the Lease, for a failure's report. */
	private static void printElectionThreads() {
		Thread.getAllStackTraces().forEach((thread, stack) -> {
			String name = thread.getName();
			if (name.contains("leader-election") || name.contains("pool") || name.contains("vert.x")) {
				System.out.println(thread + " " + thread.getState());
				for (StackTraceElement frame : stack) {
					System.out.println("\tat " + frame);
				}
			}
		});
	}

	private static boolean leading(ApplicationContext context) {
		return context.getBean(KubernetesInformers.class).isLeading();
	}

	private static org.springframework.boot.health.contributor.Health health(ApplicationContext context) {
		return context.getBean("kubernetesInformersHealthIndicator", HealthIndicator.class).health(true);
	}

}
