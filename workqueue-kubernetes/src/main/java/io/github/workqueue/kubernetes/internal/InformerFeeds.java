package io.github.workqueue.kubernetes.internal;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.dsl.FilterWatchListDeletable;
import io.fabric8.kubernetes.client.dsl.MixedOperation;
import io.fabric8.kubernetes.client.dsl.Resource;
import io.fabric8.kubernetes.client.dsl.internal.OperationSupport;
import io.fabric8.kubernetes.client.utils.Utils;
import org.jspecify.annotations.Nullable;

import io.github.workqueue.core.RateLimitingQueue;
import io.github.workqueue.kubernetes.KubernetesController;
import io.github.workqueue.kubernetes.WorkQueueKubernetesProperties;
import io.github.workqueue.kubernetes.WorkQueueKubernetesProperties.Informer;
import io.github.workqueue.kubernetes.WorkQueueKubernetesProperties.Owned;
import io.github.workqueue.spring.InvalidWorkQueueConfigurationException;

/**
 * Makes the informer source of each queue that {@code workqueue.kubernetes.informers}
 * declares, not started: the watched resource's informers (typed by {@code model-class},
 * or generic by {@code api-version} and {@code kind}), scoped to its namespaces and
 * selectors, with the owned resources' informers; then adds what each
 * {@link KubernetesController} bean says in Java (a filter, indexers, watches). A missing
 * or mismatched setting fails here, naming the property.
 *
 * <p>
 * <b>Concurrency.</b> Stateless; called once, on the thread that creates the beans.
 */
final class InformerFeeds {

	private InformerFeeds() {
	}

	/**
	 * The informer source of every declared queue, by queue name, in declaration order.
	 * @param client the informers' client
	 * @param properties the configuration
	 * @param queues the queue of each name
	 * @param controllers what Java adds to the informers
	 * @return the sources, not started
	 */
	static Map<String, InformerFeed<? extends HasMetadata>> build(KubernetesClient client,
			WorkQueueKubernetesProperties properties, Function<String, RateLimitingQueue<Object>> queues,
			List<KubernetesController<?>> controllers) {
		Map<String, InformerFeed<? extends HasMetadata>> feeds = new LinkedHashMap<>();
		properties.getInformers()
			.forEach((queueName, informer) -> feeds.put(queueName,
					feed(client, queueName, informer, queues.apply(queueName))));
		for (KubernetesController<?> controller : controllers) {
			control(client, properties, feeds, controller);
		}
		return feeds;
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
			MixedOperation<GenericKubernetesResource, ?, ?> resources = client.genericKubernetesResources(apiVersion,
					kind);
			boolean namespaced = !(resources instanceof OperationSupport support) || support.isResourceNamespaced();
			feed = new InformerFeed<>(queueName, apiVersion, kind, informer.getNamespaces(),
					(namespace) -> selected(scoped(client.genericKubernetesResources(apiVersion, kind), namespace),
							informer),
					informer.getResync().toMillis(), List.copyOf(informer.getEvents()), informer.getUpdates(),
					informer.getListPriority(), namespaced, queue);
		}
		for (int i = 0; i < informer.getOwns().size(); i++) {
			Owned owned = informer.getOwns().get(i);
			String apiVersion = required(owned.getApiVersion(), path + ".owns[" + i + "].api-version");
			String kind = required(owned.getKind(), path + ".owns[" + i + "].kind");
			feed.owns((namespace) -> scoped(client.genericKubernetesResources(apiVersion, kind), namespace));
		}
		return feed;
	}

	/** Adds a controller bean's filter, indexers and watches to its queue's informers. */
	private static void control(KubernetesClient client, WorkQueueKubernetesProperties properties,
			Map<String, InformerFeed<? extends HasMetadata>> feeds, KubernetesController<?> controller) {
		String path = "workqueue.kubernetes.informers." + controller.queueName();
		Informer informer = properties.getInformers().get(controller.queueName());
		if (informer == null) {
			throw InvalidWorkQueueConfigurationException.forQueue(controller.queueName(),
					"the bean " + controller + " adds to an informer that " + path + " does not declare",
					"Declare the informer of queue '" + controller.queueName() + "' under "
							+ "workqueue.kubernetes.informers, or name its queue in the bean.");
		}
		Class<? extends HasMetadata> type = (informer.getModelClass() != null) ? informer.getModelClass()
				: GenericKubernetesResource.class;
		if (!controller.resource().equals(type)) {
			throw InvalidWorkQueueConfigurationException.forProperty(path + ".model-class", type.getName(),
					"does not match the resource of the bean " + controller + ", " + controller.resource().getName(),
					"Give the controller the informer's model class (GenericKubernetesResource with api-version and "
							+ "kind).");
		}
		apply(client, feeds.get(controller.queueName()), controller);
	}

	@SuppressWarnings("unchecked")
	private static <T extends HasMetadata> void apply(KubernetesClient client, InformerFeed<T> feed,
			KubernetesController<?> checked) {
		KubernetesController<T> controller = (KubernetesController<T>) checked;
		feed.filter(controller::accepts);
		feed.index(controller.indexers());
		for (KubernetesController.Watch<?> watch : controller.watches()) {
			watch(client, feed, watch);
		}
	}

	private static <O extends HasMetadata> void watch(KubernetesClient client, InformerFeed<?> feed,
			KubernetesController.Watch<O> watch) {
		feed.watches((namespace) -> scoped(client.resources(watch.resource()), namespace), watch.keys());
	}

	private static <T extends HasMetadata> InformerFeed<T> typed(KubernetesClient client, String queueName,
			Informer informer, Class<T> model, RateLimitingQueue<Object> queue) {
		return new InformerFeed<>(queueName, HasMetadata.getApiVersion(model), HasMetadata.getKind(model),
				informer.getNamespaces(), (namespace) -> selected(scoped(client.resources(model), namespace), informer),
				informer.getResync().toMillis(), List.copyOf(informer.getEvents()), informer.getUpdates(),
				informer.getListPriority(), Utils.isResourceNamespaced(model), queue);
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

}
