package io.github.workqueue.kubernetes;

import java.time.Duration;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

import io.fabric8.kubernetes.api.model.HasMetadata;
import org.jspecify.annotations.Nullable;

import org.springframework.boot.context.properties.ConfigurationProperties;

/**
 * Informers that feed queues with the keys of Kubernetes objects, and leader election
 * among replicas: {@code workqueue.kubernetes.*}.
 */
@ConfigurationProperties("workqueue.kubernetes")
public class WorkQueueKubernetesProperties {

	/**
	 * Informers by the name of the queue they feed.
	 */
	private final Map<String, Informer> informers = new LinkedHashMap<>();

	private final LeaderElection leaderElection = new LeaderElection();

	/**
	 * How long the informers may take to list their objects at startup before their
	 * health says they failed to (DOWN, with the cause). The workers of a queue take no
	 * key until its informers listed, however long that takes.
	 */
	private Duration cacheSyncTimeout = Duration.ofMinutes(2);

	/**
	 * Whether startup fails when the informers have not listed their objects within
	 * cache-sync-timeout; by default the application starts and its informers keep trying
	 * in the background.
	 */
	private boolean failOnStart;

	/**
	 * How long an informer may fail to list or watch before its health is DOWN. Each
	 * outage is logged when it starts and when it ends, and every failure is counted.
	 */
	private Duration watchOutageThreshold = Duration.ofSeconds(30);

	/**
	 * The longest wait between two tries of a failed list or watch: the informers'
	 * backoff doubles from 1/32 of it up to it, so an informer is back within about this
	 * long after the API server answers again. The informers' requests are not retried by
	 * fabric8's HTTP client, so that every failure reaches them and is counted.
	 */
	private Duration maxRetryBackoff = Duration.ofSeconds(4);

	public Map<String, Informer> getInformers() {
		return this.informers;
	}

	public Duration getCacheSyncTimeout() {
		return this.cacheSyncTimeout;
	}

	public void setCacheSyncTimeout(Duration cacheSyncTimeout) {
		this.cacheSyncTimeout = cacheSyncTimeout;
	}

	public boolean isFailOnStart() {
		return this.failOnStart;
	}

	public void setFailOnStart(boolean failOnStart) {
		this.failOnStart = failOnStart;
	}

	public Duration getWatchOutageThreshold() {
		return this.watchOutageThreshold;
	}

	public void setWatchOutageThreshold(Duration watchOutageThreshold) {
		this.watchOutageThreshold = watchOutageThreshold;
	}

	public Duration getMaxRetryBackoff() {
		return this.maxRetryBackoff;
	}

	public void setMaxRetryBackoff(Duration maxRetryBackoff) {
		this.maxRetryBackoff = maxRetryBackoff;
	}

	public LeaderElection getLeaderElection() {
		return this.leaderElection;
	}

	/** What an informer watches and which of its events add a key. */
	public static class Informer {

		/**
		 * API version of the watched resource, such as {@code v1} or {@code apps/v1};
		 * with {@code kind}, instead of {@code model-class}.
		 */
		private @Nullable String apiVersion;

		/** Kind of the watched resource, such as {@code ConfigMap}. */
		private @Nullable String kind;

		/**
		 * Model class of the watched resource, such as
		 * {@code io.fabric8.kubernetes.api.model.ConfigMap}: the lister's type. Instead
		 * of {@code api-version} and {@code kind}.
		 */
		private @Nullable Class<? extends HasMetadata> modelClass;

		/** Namespaces to watch; all when empty. */
		private List<String> namespaces = new ArrayList<>();

		/** Label selector, such as {@code app=web,tier!=cache}. */
		private @Nullable String labelSelector;

		/** Field selectors, such as {@code metadata.name: web}. */
		private Map<String, String> fieldSelector = new LinkedHashMap<>();

		/** How often every cached object is delivered again as an update; none when 0. */
		private Duration resync = Duration.ZERO;

		/** Which events add the object's key to the queue. */
		private Set<EventType> events = EnumSet.allOf(EventType.class);

		/** Which updates add the object's key. */
		private UpdateFilter updates = UpdateFilter.ANY;

		/**
		 * Secondary resources whose changes add the key of their controlling owner of the
		 * watched kind (owner references with {@code controller: true}).
		 */
		private List<Owned> owns = new ArrayList<>();

		/**
		 * Priority of the keys that the informer's first list and its resyncs add, below
		 * the queue's default priority that live events use: a change made while a
		 * controller starts over many objects is processed before the backlog.
		 */
		private int listPriority = -100;

		public int getListPriority() {
			return this.listPriority;
		}

		public void setListPriority(int listPriority) {
			this.listPriority = listPriority;
		}

		public @Nullable String getApiVersion() {
			return this.apiVersion;
		}

		public void setApiVersion(@Nullable String apiVersion) {
			this.apiVersion = apiVersion;
		}

		public @Nullable String getKind() {
			return this.kind;
		}

		public void setKind(@Nullable String kind) {
			this.kind = kind;
		}

		public @Nullable Class<? extends HasMetadata> getModelClass() {
			return this.modelClass;
		}

		public void setModelClass(@Nullable Class<? extends HasMetadata> modelClass) {
			this.modelClass = modelClass;
		}

		public List<String> getNamespaces() {
			return this.namespaces;
		}

		public void setNamespaces(List<String> namespaces) {
			this.namespaces = namespaces;
		}

		public @Nullable String getLabelSelector() {
			return this.labelSelector;
		}

		public void setLabelSelector(@Nullable String labelSelector) {
			this.labelSelector = labelSelector;
		}

		public Map<String, String> getFieldSelector() {
			return this.fieldSelector;
		}

		public void setFieldSelector(Map<String, String> fieldSelector) {
			this.fieldSelector = fieldSelector;
		}

		public Duration getResync() {
			return this.resync;
		}

		public void setResync(Duration resync) {
			this.resync = resync;
		}

		public Set<EventType> getEvents() {
			return this.events;
		}

		public void setEvents(Set<EventType> events) {
			this.events = events;
		}

		public UpdateFilter getUpdates() {
			return this.updates;
		}

		public void setUpdates(UpdateFilter updates) {
			this.updates = updates;
		}

		public List<Owned> getOwns() {
			return this.owns;
		}

		public void setOwns(List<Owned> owns) {
			this.owns = owns;
		}

	}

	/** A secondary resource mapped to its owner's key. */
	public static class Owned {

		/** API version of the owned resource, such as {@code v1}. */
		private @Nullable String apiVersion;

		/** Kind of the owned resource, such as {@code Secret}. */
		private @Nullable String kind;

		public @Nullable String getApiVersion() {
			return this.apiVersion;
		}

		public void setApiVersion(@Nullable String apiVersion) {
			this.apiVersion = apiVersion;
		}

		public @Nullable String getKind() {
			return this.kind;
		}

		public void setKind(@Nullable String kind) {
			this.kind = kind;
		}

	}

	/** Which informer events add a key. */
	public enum EventType {

		/** An object appeared (also each object of the first list). */
		ADD,

		/** An object changed, or was delivered again by a resync. */
		UPDATE,

		/** An object was deleted (also one found gone after a watch restart). */
		DELETE

	}

	/** Which updates add a key. */
	public enum UpdateFilter {

		/** Every update, resyncs included: client-go's default. */
		ANY,

		/**
		 * Updates that change {@code metadata.generation} (the spec, for resources that
		 * count generations), and resyncs: controller-runtime's
		 * {@code GenerationChangedPredicate}, with resyncs kept so that {@code resync}
		 * still works.
		 */
		GENERATION_CHANGED

	}

	/**
	 * What to do with keys still running when a lost Lease may pass to another replica.
	 */
	public enum OverrunAction {

		/** Halt the process at once. */
		EXIT,

		/** Interrupt the worker methods still running. */
		INTERRUPT

	}

	/**
	 * Leader election among replicas on a {@code coordination.k8s.io} Lease: only the
	 * leader's workers of the informer-fed queues run. For in-memory queues; queues on
	 * Redis need none, as every replica shares them.
	 */
	public static class LeaderElection {

		/** Whether the replicas elect a leader. */
		private boolean enabled;

		/** Name of the Lease; defaults to spring.application.name, else "workqueue". */
		private @Nullable String leaseName;

		/** Namespace of the Lease; defaults to the client's namespace. */
		private @Nullable String leaseNamespace;

		/**
		 * This replica's name in the Lease; defaults to the host name and a random part.
		 */
		private @Nullable String identity;

		/** How long a leader's lease lasts without renewal: a standby's longest wait. */
		private Duration leaseDuration = Duration.ofSeconds(15);

		/** How long the leader tries to renew before it stops leading. */
		private Duration renewDeadline = Duration.ofSeconds(10);

		/** How often candidates try to acquire or renew the Lease. */
		private Duration retryPeriod = Duration.ofSeconds(2);

		/**
		 * How far the replicas' clocks may be apart: fabric8 judges a Lease expired by
		 * the holder's renew time on the candidate's clock. A replica that lost the Lease
		 * must end its keys within lease-duration less renew-deadline less this after its
		 * last renewal.
		 */
		private Duration maxClockSkew = Duration.ofSeconds(1);

		/**
		 * What a replica that lost the Lease does with keys still running when another
		 * replica may take it over: exit the process (halt, so that no shutdown hook
		 * waits for them), as controller-runtime and java-operator-sdk do, or interrupt
		 * them (each a failed attempt, retried once this replica leads again; a method
		 * that ignores interrupts may then overlap with the new leader).
		 */
		private OverrunAction onOverrun = OverrunAction.EXIT;

		public Duration getMaxClockSkew() {
			return this.maxClockSkew;
		}

		public void setMaxClockSkew(Duration maxClockSkew) {
			this.maxClockSkew = maxClockSkew;
		}

		public OverrunAction getOnOverrun() {
			return this.onOverrun;
		}

		public void setOnOverrun(OverrunAction onOverrun) {
			this.onOverrun = onOverrun;
		}

		public boolean isEnabled() {
			return this.enabled;
		}

		public void setEnabled(boolean enabled) {
			this.enabled = enabled;
		}

		public @Nullable String getLeaseName() {
			return this.leaseName;
		}

		public void setLeaseName(@Nullable String leaseName) {
			this.leaseName = leaseName;
		}

		public @Nullable String getLeaseNamespace() {
			return this.leaseNamespace;
		}

		public void setLeaseNamespace(@Nullable String leaseNamespace) {
			this.leaseNamespace = leaseNamespace;
		}

		public @Nullable String getIdentity() {
			return this.identity;
		}

		public void setIdentity(@Nullable String identity) {
			this.identity = identity;
		}

		public Duration getLeaseDuration() {
			return this.leaseDuration;
		}

		public void setLeaseDuration(Duration leaseDuration) {
			this.leaseDuration = leaseDuration;
		}

		public Duration getRenewDeadline() {
			return this.renewDeadline;
		}

		public void setRenewDeadline(Duration renewDeadline) {
			this.renewDeadline = renewDeadline;
		}

		public Duration getRetryPeriod() {
			return this.retryPeriod;
		}

		public void setRetryPeriod(Duration retryPeriod) {
			this.retryPeriod = retryPeriod;
		}

	}

}
