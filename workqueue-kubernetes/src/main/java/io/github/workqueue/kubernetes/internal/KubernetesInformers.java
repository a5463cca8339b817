package io.github.workqueue.kubernetes.internal;

import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.function.Function;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.dsl.FilterWatchListDeletable;
import io.fabric8.kubernetes.client.dsl.MixedOperation;
import io.fabric8.kubernetes.client.dsl.Resource;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.jspecify.annotations.Nullable;

import org.springframework.context.SmartLifecycle;

import io.github.workqueue.core.RateLimitingQueue;
import io.github.workqueue.kubernetes.WorkQueueKubernetesProperties;
import io.github.workqueue.kubernetes.WorkQueueKubernetesProperties.Informer;
import io.github.workqueue.kubernetes.WorkQueueKubernetesProperties.Owned;
import io.github.workqueue.spring.QueueWorkerContainer;
import io.github.workqueue.spring.QueueWorkerRegistry;
import io.github.workqueue.spring.internal.DefaultQueueWorkerRegistry;

/**
 * The informers of every configured queue, started once the worker containers run and
 * stopped before them. With leader election, the workers of the informer-fed queues are
 * paused before the informers start (so that no key is processed before this replica
 * leads), run while it leads, and are paused again when it stops leading; the informers
 * run on every replica, so that a standby's cache and queue are warm when it takes over.
 *
 * <p>
 * <b>Concurrency.</b> Thread-safe: lifecycle calls are synchronized; leadership changes
 * come on the elector's thread and pause or resume the containers, which are thread-safe.
 */
public final class KubernetesInformers implements SmartLifecycle {

	private static final Log logger = LogFactory.getLog(KubernetesInformers.class);

	private final Map<String, InformerFeed<? extends HasMetadata>> feeds = new LinkedHashMap<>();

	private final QueueWorkerRegistry workers;

	private final @Nullable LeaderElection election;

	private boolean running;

	/**
	 * Makes the informers, not started.
	 * @param client the client
	 * @param properties the configuration
	 * @param queues the queue of each name
	 * @param workers the worker containers
	 * @param applicationName the default Lease name
	 */
	public KubernetesInformers(KubernetesClient client, WorkQueueKubernetesProperties properties,
			Function<String, RateLimitingQueue<Object>> queues, QueueWorkerRegistry workers,
			@Nullable String applicationName) {
		this.workers = workers;
		properties.getInformers()
			.forEach((queueName, informer) -> this.feeds.put(queueName,
					feed(client, queueName, informer, queues.apply(queueName))));
		WorkQueueKubernetesProperties.LeaderElection election = properties.getLeaderElection();
		this.election = election.isEnabled()
				? new LeaderElection(client, election, applicationName, this::lead, this::follow) : null;
	}

	private static InformerFeed<? extends HasMetadata> feed(KubernetesClient client, String queueName,
			Informer informer, RateLimitingQueue<Object> queue) {
		String path = "workqueue.kubernetes.informers." + queueName;
		Class<? extends HasMetadata> model = informer.getModelClass();
		InformerFeed<? extends HasMetadata> feed;
		if (model != null) {
			feed = typed(client, queueName, informer, model, queue);
		}
		else {
			String apiVersion = required(informer.getApiVersion(), path + ".api-version");
			String kind = required(informer.getKind(), path + ".kind");
			feed = new InformerFeed<>(queueName, apiVersion, kind, informer.getNamespaces(),
					(namespace) -> selected(scoped(client.genericKubernetesResources(apiVersion, kind), namespace),
							informer),
					informer.getResync().toMillis(), List.copyOf(informer.getEvents()), informer.getUpdates(), queue);
		}
		for (int i = 0; i < informer.getOwns().size(); i++) {
			Owned owned = informer.getOwns().get(i);
			String apiVersion = required(owned.getApiVersion(), path + ".owns[" + i + "].api-version");
			String kind = required(owned.getKind(), path + ".owns[" + i + "].kind");
			feed.owns((namespace) -> scoped(client.genericKubernetesResources(apiVersion, kind), namespace));
		}
		return feed;
	}

	private static <T extends HasMetadata> InformerFeed<T> typed(KubernetesClient client, String queueName,
			Informer informer, Class<T> model, RateLimitingQueue<Object> queue) {
		return new InformerFeed<>(queueName, HasMetadata.getApiVersion(model), HasMetadata.getKind(model),
				informer.getNamespaces(), (namespace) -> selected(scoped(client.resources(model), namespace), informer),
				informer.getResync().toMillis(), List.copyOf(informer.getEvents()), informer.getUpdates(), queue);
	}

	private static <T extends HasMetadata, L> FilterWatchListDeletable<T, L, Resource<T>> scoped(
			MixedOperation<T, L, Resource<T>> operation, @Nullable String namespace) {
		return (namespace != null) ? operation.inNamespace(namespace) : operation.inAnyNamespace();
	}

	private static <T extends HasMetadata, L> FilterWatchListDeletable<T, L, Resource<T>> selected(
			FilterWatchListDeletable<T, L, Resource<T>> operation, Informer informer) {
		FilterWatchListDeletable<T, L, Resource<T>> selected = operation;
		if (informer.getLabelSelector() != null) {
			selected = selected.withLabelSelector(informer.getLabelSelector());
		}
		if (!informer.getFieldSelector().isEmpty()) {
			selected = selected.withFields(informer.getFieldSelector());
		}
		return selected;
	}

	private static String required(@Nullable String value, String property) {
		if (value == null || value.isBlank()) {
			throw new IllegalStateException("Invalid workqueue configuration: property '" + property
					+ "' is required (or set model-class instead of api-version and kind)");
		}
		return value;
	}

	/** The informer source of a queue, which is also its lister. */
	public InformerFeed<? extends HasMetadata> feed(String queueName) {
		return Objects.requireNonNull(this.feeds.get(queueName), () -> "No informer feeds queue '" + queueName + "'");
	}

	public Collection<InformerFeed<? extends HasMetadata>> feeds() {
		return this.feeds.values();
	}

	/** Whether this replica leads; true without leader election. */
	public boolean isLeading() {
		return this.election == null || this.election.isLeading();
	}

	@Override
	public synchronized void start() {
		if (this.election != null) {
			containers().forEach(QueueWorkerContainer::pause);
		}
		this.feeds.values().forEach(InformerFeed::start);
		if (this.election != null) {
			this.election.start();
		}
		this.running = true;
	}

	@Override
	public synchronized void stop() {
		if (this.election != null) {
			this.election.stop();
		}
		this.feeds.values().forEach(InformerFeed::stop);
		this.running = false;
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

	private void lead() {
		logger.info("Leading: the workers of " + this.feeds.keySet() + " run");
		containers().forEach(QueueWorkerContainer::resume);
	}

	private void follow() {
		logger.info("Not leading: the workers of " + this.feeds.keySet() + " are paused");
		containers().forEach(QueueWorkerContainer::pause);
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

}
