package io.github.workqueue.kubernetes.autoconfigure;

import java.util.List;
import java.util.Locale;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;

import io.github.workqueue.kubernetes.WorkQueueKubernetesProperties.EventType;
import io.github.workqueue.kubernetes.internal.InformerFeed;
import io.github.workqueue.kubernetes.internal.KubernetesInformers;

/**
 * The informers' meters, read when scraped: {@code workqueue_kubernetes_events_total}
 * (tags {@code name}: the queue, {@code type}: add, update, delete),
 * {@code workqueue_kubernetes_cached_objects}, {@code workqueue_kubernetes_synced} (1
 * once the cache is complete) and {@code workqueue_kubernetes_watch_errors_total} (tags
 * {@code name}, {@code resource} and {@code reason}: forbidden, not-found, unauthorized,
 * server-error, watch-closed, unreachable, other, and not-watching: an outage seen in the
 * informers' state, whose watch fabric8 opened again without telling them).
 */
final class KubernetesInformerMetrics {

	/** The reasons a list or watch fails, as {@code WatchOutages} classes them. */
	private static final List<String> WATCH_ERROR_REASONS = List.of("forbidden", "not-found", "unauthorized",
			"server-error", "watch-closed", "unreachable", "other", "not-watching");

	KubernetesInformerMetrics(KubernetesInformers informers, MeterRegistry registry) {
		for (InformerFeed<? extends HasMetadata> feed : informers.feeds()) {
			for (EventType type : EventType.values()) {
				FunctionCounter.builder("workqueue.kubernetes.events", feed, (f) -> f.events(type))
					.description("Events of the informer's resource, by type")
					.tag("name", feed.queueName())
					.tag("type", type.name().toLowerCase(Locale.ROOT))
					.register(registry);
			}
			Gauge.builder("workqueue.kubernetes.cached.objects", feed, InformerFeed::cachedObjects)
				.description("Objects in the informer's cache")
				.tag("name", feed.queueName())
				.register(registry);
			for (String reason : WATCH_ERROR_REASONS) {
				FunctionCounter.builder("workqueue.kubernetes.watch.errors", feed, (f) -> f.failures(reason))
					.description("Failed lists and watches of the informers, by reason; each is retried")
					.tag("name", feed.queueName())
					.tag("resource", feed.resource())
					.tag("reason", reason)
					.register(registry);
			}
			Gauge.builder("workqueue.kubernetes.synced", feed, (f) -> f.hasSynced() ? 1 : 0)
				.description("1 once the informer has listed every object")
				.tag("name", feed.queueName())
				.register(registry);
		}
	}

}
