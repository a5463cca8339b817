package io.github.workqueue.kubernetes;

import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.function.Function;
import java.util.function.Predicate;

import io.fabric8.kubernetes.api.model.HasMetadata;

/**
 * What the YAML of an informer cannot say, in Java: a bean of this type adds to the
 * informer that {@code workqueue.kubernetes.informers.<queue>} declares a filter of its
 * objects' events, indexers for its lister, and watches of other resources whose changes
 * add keys that a function maps them to (controller-runtime's {@code Watches}; the YAML's
 * {@code owns} maps by owner reference only). The queue's workers wait for these watches
 * to list too.
 *
 * <pre class="code">
 * &#64;Bean
 * KubernetesController&lt;ConfigMap&gt; configmapsController() {
 *     return KubernetesController.forQueue("configmaps", ConfigMap.class)
 *         .filter((cm) -&gt; !"true".equals(cm.getMetadata().getLabels().get("paused")))
 *         .index("by-app", (cm) -&gt; List.of(cm.getMetadata().getLabels().getOrDefault("app", "")))
 *         .watches(Secret.class, (secret) -&gt; List.of(new ObjectKey(secret.getMetadata().getNamespace(),
 *                 secret.getMetadata().getLabels().get("config"))))
 *         .build();
 * }
 * </pre>
 *
 * <p>
 * <b>Concurrency.</b> Immutable once built. The functions it holds run on the informers'
 * threads, one event at a time per informer: they must be thread-safe and quick.
 *
 * @param <T> the watched resource's type, the informer's {@code model-class}
 * ({@code GenericKubernetesResource} with {@code api-version} and {@code kind})
 */
public final class KubernetesController<T extends HasMetadata> {

	private final String queueName;

	private final Class<T> resource;

	private final Predicate<? super T> filter;

	private final Map<String, Function<T, List<String>>> indexers;

	private final List<Watch<?>> watches;

	private KubernetesController(Builder<T> builder) {
		this.queueName = builder.queueName;
		this.resource = builder.resource;
		this.filter = builder.filter;
		this.indexers = Map.copyOf(builder.indexers);
		this.watches = List.copyOf(builder.watches);
	}

	/**
	 * Starts describing the controller of a queue that an informer feeds.
	 * @param queueName the queue, as named under {@code workqueue.kubernetes.informers}
	 * @param resource the watched resource's type, as the informer's {@code model-class}
	 * @param <T> the type
	 * @return a builder
	 */
	public static <T extends HasMetadata> Builder<T> forQueue(String queueName, Class<T> resource) {
		return new Builder<>(queueName, resource);
	}

	public String queueName() {
		return this.queueName;
	}

	public Class<T> resource() {
		return this.resource;
	}

	/**
	 * Whether an event of the object adds its key (every event: its last known state).
	 */
	public boolean accepts(T object) {
		return this.filter.test(object);
	}

	/**
	 * The lister's indexers by name: each maps an object to the values it is found by.
	 */
	public Map<String, Function<T, List<String>>> indexers() {
		return this.indexers;
	}

	/** The watches of other resources. */
	public List<Watch<?>> watches() {
		return this.watches;
	}

	@Override
	public String toString() {
		return "KubernetesController[" + this.queueName + ", " + this.resource.getSimpleName() + ", "
				+ this.watches.size() + " watch(es)]";
	}

	/**
	 * A watch of another resource, in the watched resource's namespaces: a change of one
	 * of its objects (create, update: both states, delete) adds the keys it maps to.
	 *
	 * @param <O> the resource's type
	 * @param resource the resource's type
	 * @param keys the keys an object maps to, none to add nothing
	 */
	public record Watch<O extends HasMetadata>(Class<O> resource, Function<O, Collection<ObjectKey>> keys) {

		public Watch {
			Objects.requireNonNull(resource, "resource");
			Objects.requireNonNull(keys, "keys");
		}

	}

	/**
	 * Builds a {@link KubernetesController}.
	 *
	 * @param <T> the watched resource's type
	 */
	public static final class Builder<T extends HasMetadata> {

		private final String queueName;

		private final Class<T> resource;

		private Predicate<? super T> filter = (object) -> true;

		private final Map<String, Function<T, List<String>>> indexers = new LinkedHashMap<>();

		private final List<Watch<?>> watches = new ArrayList<>();

		private Builder(String queueName, Class<T> resource) {
			this.queueName = Objects.requireNonNull(queueName, "queueName");
			this.resource = Objects.requireNonNull(resource, "resource");
		}

		/**
		 * Adds the key of an object only for events whose object (its new state; a
		 * delete's last state) passes the filter. Filters combine with AND.
		 * @param filter the filter
		 * @return this builder
		 */
		public Builder<T> filter(Predicate<? super T> filter) {
			Objects.requireNonNull(filter, "filter");
			Predicate<? super T> before = this.filter;
			this.filter = (object) -> before.test(object) && filter.test(object);
			return this;
		}

		/**
		 * Adds an indexer to the informer's cache, for the lister's
		 * {@link KubernetesLister#byIndex(String, String)}.
		 * @param name the index's name
		 * @param values the values an object is found by
		 * @return this builder
		 */
		public Builder<T> index(String name, Function<T, List<String>> values) {
			Objects.requireNonNull(name, "name");
			if (this.indexers.putIfAbsent(name, Objects.requireNonNull(values, "values")) != null) {
				throw new IllegalArgumentException(
						"Queue '" + this.queueName + "': index '" + name + "' is defined twice");
			}
			return this;
		}

		/**
		 * Watches another resource in the watched resource's namespaces: each change of
		 * one of its objects adds the keys the function maps it to.
		 * @param resource the resource's model class
		 * @param keys the keys an object maps to (may be empty)
		 * @param <O> the resource's type
		 * @return this builder
		 */
		public <O extends HasMetadata> Builder<T> watches(Class<O> resource, Function<O, Collection<ObjectKey>> keys) {
			this.watches.add(new Watch<>(resource, keys));
			return this;
		}

		public KubernetesController<T> build() {
			return new KubernetesController<>(this);
		}

	}

}
