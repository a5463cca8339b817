package io.github.workqueue.kubernetes.internal;

import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.Function;
import java.util.function.Predicate;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.client.dsl.FilterWatchListDeletable;
import io.fabric8.kubernetes.client.informers.ResourceEventHandler;
import io.fabric8.kubernetes.client.informers.SharedIndexInformer;
import io.fabric8.kubernetes.client.informers.cache.Cache;
import org.jspecify.annotations.Nullable;

import io.github.workqueue.core.AddOptions;
import io.github.workqueue.core.RateLimitingQueue;
import io.github.workqueue.kubernetes.KubernetesLister;
import io.github.workqueue.kubernetes.ObjectKey;
import io.github.workqueue.kubernetes.WorkQueueKubernetesProperties.EventType;
import io.github.workqueue.kubernetes.WorkQueueKubernetesProperties.UpdateFilter;

/**
 * One informer source of a queue: informers of the watched resource (one per namespace,
 * or one for all), whose events add the object's {@link ObjectKey} as client-go's
 * handlers do, and informers of the owned resources, whose events add the key of their
 * controlling owner. Its cache is the queue's {@link KubernetesLister}; the last state of
 * each deleted object is kept for the worker that cleans up after it. Keys from an
 * informer's first list and from resyncs go in at the list priority, below live events'.
 * Every list or watch failure is retried, counted and logged once per outage
 * ({@link WatchOutages}).
 *
 * <p>
 * <b>Concurrency.</b> Thread-safe. Event handlers run on the informers' threads; the
 * deleted states are kept by {@link DeletedStates}, which is thread-safe; the counters
 * are adders.
 *
 * @param <T> the type of the watched objects
 */
public final class InformerFeed<T extends HasMetadata> implements KubernetesLister<T> {

	private final String queueName;

	private final String resource;

	/** The keys of an owned object's owners of the watched kind. */
	private final OwnerKeys ownerKeys;

	private final RateLimitingQueue<Object> queue;

	private final List<EventType> events;

	private final UpdateFilter updates;

	/** By namespace; the key {@code null} for one informer of every namespace. */
	private final Map<@Nullable String, SharedIndexInformer<T>> informers = new LinkedHashMap<>();

	private final List<SharedIndexInformer<? extends HasMetadata>> owned = new ArrayList<>();

	private final DeletedStates<T> deleted = new DeletedStates<>();

	private final Map<EventType, LongAdder> seen = new LinkedHashMap<>();

	private volatile long lastEventMillis;

	/** The priority of keys from an informer's first list and from resyncs. */
	private final int listPriority;

	private final WatchOutages outages;

	/** Which objects' events add their key; set before the informers start. */
	private Predicate<? super T> filter = (object) -> true;

	/**
	 * Makes the informers, not started.
	 * @param queueName the queue fed
	 * @param apiVersion the watched resource's API version
	 * @param kind its kind
	 * @param namespaces the namespaces watched, empty for all
	 * @param operation the client operation for a namespace, or for all ({@code null})
	 * @param resyncMillis the resync period, 0 for none
	 * @param listPriority the priority of keys from the first list and from resyncs
	 * @param namespaced whether the watched kind is namespaced
	 * @param queue the queue fed
	 */
	public InformerFeed(String queueName, String apiVersion, String kind, List<String> namespaces,
			Function<@Nullable String, FilterWatchListDeletable<T, ?, ?>> operation, long resyncMillis,
			List<EventType> events, UpdateFilter updates, int listPriority, boolean namespaced,
			RateLimitingQueue<Object> queue) {
		this.queueName = queueName;
		this.resource = apiVersion + " " + kind;
		this.listPriority = listPriority;
		this.outages = new WatchOutages(queueName, this.resource);
		this.ownerKeys = new OwnerKeys(apiVersion, kind, namespaced);
		this.queue = queue;
		this.events = List.copyOf(events);
		this.updates = updates;
		for (EventType type : EventType.values()) {
			this.seen.put(type, new LongAdder());
		}
		List<@Nullable String> scopes = namespaces.isEmpty() ? java.util.Collections.singletonList(null)
				: List.copyOf(namespaces);
		for (@Nullable
		String namespace : scopes) {
			SharedIndexInformer<T> informer = operation.apply(namespace).runnableInformer(resyncMillis);
			informer.exceptionHandler(this.outages);
			informer.addEventHandler(new Primary());
			this.informers.put(namespace, informer);
		}
	}

	/**
	 * Adds a secondary resource: its objects' changes add the key of their controlling
	 * owner of the watched kind and group. Its informers cache only what that mapping
	 * needs ({@link OwnerReferencesStore}).
	 * @param operations the client operation for a namespace, or for all
	 */
	public void owns(Function<@Nullable String, FilterWatchListDeletable<GenericKubernetesResource, ?, ?>> operations) {
		for (@Nullable
		String namespace : this.informers.keySet()) {
			SharedIndexInformer<GenericKubernetesResource> informer = operations.apply(namespace).runnableInformer(0);
			informer.itemStore(new OwnerReferencesStore());
			informer.exceptionHandler(this.outages);
			informer.addEventHandler(new MappedEvents<GenericKubernetesResource>(this.ownerKeys, this::add));
			this.owned.add(informer);
		}
	}

	/**
	 * Adds keys only for events whose object passes the filter. Before {@link #start}.
	 * @param filter the filter
	 */
	public void filter(Predicate<? super T> filter) {
		this.filter = filter;
	}

	/**
	 * Adds indexers to the watched resource's caches, for {@link #byIndex}. Before
	 * {@link #start}.
	 * @param indexers the values each object is found by, by index name
	 */
	public void index(Map<String, Function<T, List<String>>> indexers) {
		if (!indexers.isEmpty()) {
			this.informers.values().forEach((informer) -> informer.addIndexers(indexers));
		}
	}

	/**
	 * Adds another resource, watched in the same namespaces: each change of one of its
	 * objects adds the keys the function maps it to. Before {@link #start}.
	 * @param operations the client operation for a namespace, or for all
	 * @param keys the keys an object maps to
	 */
	public <O extends HasMetadata> void watches(
			Function<@Nullable String, FilterWatchListDeletable<O, ?, ?>> operations,
			Function<O, Collection<ObjectKey>> keys) {
		for (@Nullable
		String namespace : this.informers.keySet()) {
			SharedIndexInformer<O> informer = operations.apply(namespace).runnableInformer(0);
			informer.exceptionHandler(this.outages);
			informer.addEventHandler(new MappedEvents<O>(keys, this::add));
			this.owned.add(informer);
		}
	}

	/** Starts every informer; their first lists run in the background. */
	public void start() {
		this.informers.values().forEach(SharedIndexInformer::start);
		this.owned.forEach(SharedIndexInformer::start);
	}

	/** Stops every informer. */
	public void stop() {
		this.informers.values().forEach(SharedIndexInformer::stop);
		this.owned.forEach(SharedIndexInformer::stop);
	}

	@Override
	public Optional<T> get(ObjectKey key) {
		SharedIndexInformer<T> informer = informerOf(key.namespace());
		return (informer != null) ? Optional.ofNullable(informer.getIndexer().getByKey(key.toString()))
				: Optional.empty();
	}

	@Override
	public Optional<T> deleted(ObjectKey key) {
		return this.deleted.get(key);
	}

	/** How many deleted objects' last states are kept now. */
	public int deletedKept() {
		return this.deleted.size();
	}

	/**
	 * A worker of the queue starts processing an item.
	 * @param item the item
	 */
	public void processingStarted(Object item) {
		if (item instanceof ObjectKey key) {
			this.deleted.started(key);
		}
	}

	/**
	 * A worker of the queue ended processing an item, before its {@code done}.
	 * @param item the item
	 * @param requeued whether the container added it again
	 */
	public void processingEnded(Object item, boolean requeued) {
		if (item instanceof ObjectKey key) {
			this.deleted.ended(key, requeued);
		}
	}

	@Override
	public List<T> list() {
		List<T> all = new ArrayList<>();
		this.informers.values().forEach((informer) -> all.addAll(informer.getIndexer().list()));
		return all;
	}

	@Override
	public List<T> list(String namespace) {
		SharedIndexInformer<T> informer = informerOf(namespace);
		return (informer != null) ? informer.getIndexer().byIndex(Cache.NAMESPACE_INDEX, namespace) : List.of();
	}

	@Override
	public List<T> byIndex(String index, String value) {
		List<T> all = new ArrayList<>();
		this.informers.values().forEach((informer) -> all.addAll(informer.getIndexer().byIndex(index, value)));
		return all;
	}

	@Override
	public boolean hasSynced() {
		return this.informers.values().stream().allMatch(SharedIndexInformer::hasSynced)
				&& this.owned.stream().allMatch(SharedIndexInformer::hasSynced);
	}

	/** Whether every informer is watching now (a watch being restarted is not). */
	public boolean isWatching() {
		return this.informers.values().stream().allMatch(SharedIndexInformer::isWatching)
				&& this.owned.stream().allMatch(SharedIndexInformer::isWatching);
	}

	/**
	 * Notes whether every informer watches now: an outage ends when they all do, and one
	 * starts when an informer that had listed stays not watching though no failure was
	 * reported ({@link WatchOutages#notWatching}). Called periodically.
	 * @param now {@link System#nanoTime()}
	 */
	public void checkWatching(long now) {
		if (isWatching()) {
			this.outages.watching();
		}
		else if (hasSynced()) {
			this.outages.notWatching(now);
		}
	}

	/**
	 * How long the informers have been failing to list or watch, or -1 if they are not.
	 * @param now {@link System#nanoTime()}
	 */
	public long outageNanos(long now) {
		return this.outages.outageNanos(now);
	}

	/** The last list or watch failure, as reason and message, or {@code null}. */
	public @Nullable String lastFailure() {
		return this.outages.cause();
	}

	/** The list and watch failures so far, by reason. */
	public Map<String, Long> failures() {
		return this.outages.counts();
	}

	/** How many list and watch failures of a reason came so far. */
	public long failures(String reason) {
		return this.outages.count(reason);
	}

	/** The queue this feeds. */
	public String queueName() {
		return this.queueName;
	}

	/** The watched resource, as {@code apiVersion kind}. */
	public String resource() {
		return this.resource;
	}

	/** How many objects the cache holds. */
	public int cachedObjects() {
		return this.informers.values().stream().mapToInt((informer) -> informer.getIndexer().list().size()).sum();
	}

	/** How many events of a type the watched resource had. */
	public long events(EventType type) {
		return this.seen.get(type).sum();
	}

	/**
	 * What the health and the endpoint say of this source: the resource, whether its
	 * cache is complete and its watches run, the cached objects, the events by type and
	 * when the last came.
	 * @return the description, in order
	 */
	public Map<String, Object> describe() {
		Map<String, Object> details = new LinkedHashMap<>();
		details.put("resource", this.resource);
		details.put("synced", hasSynced());
		details.put("watching", isWatching());
		details.put("cachedObjects", cachedObjects());
		Map<String, Long> counts = new LinkedHashMap<>();
		for (EventType type : EventType.values()) {
			counts.put(type.name().toLowerCase(java.util.Locale.ROOT), events(type));
		}
		details.put("events", counts);
		details.put("lastEventMillis", this.lastEventMillis);
		details.put("failures", failures());
		String failure = lastFailure();
		if (failure != null) {
			details.put("lastFailure", failure);
		}
		return details;
	}

	private @Nullable SharedIndexInformer<T> informerOf(@Nullable String namespace) {
		SharedIndexInformer<T> all = this.informers.get(null);
		return (all != null) ? all : this.informers.get(namespace);
	}

	private void seen(EventType type) {
		this.seen.get(type).increment();
		this.lastEventMillis = System.currentTimeMillis();
	}

	private void enqueue(EventType type, T object, boolean fromList) {
		if (this.events.contains(type) && this.filter.test(object)) {
			ObjectKey key = ObjectKey.of(object);
			if (fromList) {
				this.deleted.added(key);
				this.queue.add(key, AddOptions.priority(this.listPriority));
			}
			else {
				add(key);
			}
		}
	}

	/** Adds a key at the queue's default priority. */
	private void add(ObjectKey key) {
		this.deleted.added(key);
		this.queue.add(key);
	}

	/**
	 * The watched resource's handler, one per informer. Events reach it one at a time, in
	 * order: the first list's adds between {@code onBeforeList} and {@code onList}, then
	 * the watch's events (and later lists').
	 */
	private final class Primary implements ResourceEventHandler<T> {

		/**
		 * In the informer's first list; read and written on the handler's events only.
		 */
		private boolean firstList;

		private boolean listedOnce;

		@Override
		public void onBeforeList(String resourceVersion) {
			this.firstList = !this.listedOnce;
		}

		@Override
		public void onList(String resourceVersion, boolean empty) {
			this.firstList = false;
			this.listedOnce = true;
		}

		@Override
		public void onAdd(T object) {
			seen(EventType.ADD);
			ObjectKey key = ObjectKey.of(object);
			InformerFeed.this.deleted.recreated(key);
			enqueue(EventType.ADD, object, this.firstList);
		}

		@Override
		public void onUpdate(T before, T after) {
			seen(EventType.UPDATE);
			boolean resync = isResync(before, after);
			if (InformerFeed.this.updates == UpdateFilter.GENERATION_CHANGED && !resync
					&& sameGeneration(before, after)) {
				return;
			}
			enqueue(EventType.UPDATE, after, resync);
		}

		/**
		 * Whether both states count generations and have the same one: a kind without
		 * {@code metadata.generation} (a ConfigMap) lets every update through.
		 */
		private boolean sameGeneration(T before, T after) {
			Long generation = after.getMetadata().getGeneration();
			return generation != null && generation.equals(before.getMetadata().getGeneration());
		}

		@Override
		public void onDelete(T object, boolean finalStateUnknown) {
			seen(EventType.DELETE);
			ObjectKey key = ObjectKey.of(object);
			InformerFeed.this.deleted.deleted(key, object);
			enqueue(EventType.DELETE, object, false);
		}

		private boolean isResync(T before, T after) {
			return Objects.equals(before.getMetadata().getResourceVersion(), after.getMetadata().getResourceVersion());
		}

	}

}
